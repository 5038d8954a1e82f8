// Crosstable form: pick players from the registry while typing a name (the public players API).
// Without JavaScript the form still works: type the federation ID, matching does the rest.
(function () {
  "use strict";
  var form = document.getElementById("crosstable-form");
  if (!form) { return; }
  var api = form.dataset.playersApi;
  var list = document.getElementById("registry-players");
  var found = {};
  var timer = null;

  function label(p) { return p.surname + ", " + p.given_name + " (" + p.fed_id + ")"; }

  function search(query) {
    if (query.length < 3) { return; }
    fetch(api + "?q=" + encodeURIComponent(query) + "&limit=20", {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : {results: []}; })
      .then(function (data) {
        list.textContent = "";
        (data.results || data).forEach(function (p) {
          found[label(p)] = p;
          var option = document.createElement("option");
          option.value = label(p);
          list.appendChild(option);
        });
      })
      .catch(function () { /* offline: typing still works */ });
  }

  form.querySelectorAll("input[name^='name_']").forEach(function (input) {
    var n = input.name.slice(5);
    input.setAttribute("list", "registry-players");
    input.addEventListener("input", function () {
      var p = found[input.value];
      if (p) {
        input.value = p.surname + ", " + p.given_name;
        form.querySelector("[name='fed_id_" + n + "']").value = p.fed_id;
        form.querySelector("[name='fide_id_" + n + "']").value = p.fide_id || "";
        var rating = form.querySelector("[name='rating_" + n + "']");
        if (!rating.value && p.fide_standard) { rating.value = p.fide_standard; }
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(function () { search(input.value.trim()); }, 250);
    });
  });
}());
