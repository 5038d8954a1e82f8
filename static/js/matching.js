// Matching form: search the registry while typing in a line's "find" field. The suggestions
// are federation IDs labelled with the name (the endpoint reads players.selectors.player_search);
// without JavaScript, typing the federation ID works the same.
(function () {
  "use strict";
  var form = document.getElementById("matching-form");
  if (!form) { return; }
  var url = form.dataset.searchUrl;
  var timers = {};

  function fill(list, results) {
    list.textContent = "";
    results.forEach(function (p) {
      var option = document.createElement("option");
      option.value = p.fed_id;
      option.label = p.name + (p.birth_year ? ", " + p.birth_year : "") + (p.fide_id ? " · FIDE " + p.fide_id : "");
      option.textContent = option.label;
      list.appendChild(option);
    });
  }

  form.querySelectorAll("input.registry-search").forEach(function (input) {
    var list = document.getElementById(input.getAttribute("list"));
    input.addEventListener("input", function () {
      var query = input.value.trim();
      clearTimeout(timers[input.id]);
      if (query.length < 3) { return; }
      timers[input.id] = setTimeout(function () {
        fetch(url + "?q=" + encodeURIComponent(query), {headers: {"Accept": "application/json"}, credentials: "same-origin"})
          .then(function (r) { return r.ok ? r.json() : {results: []}; })
          .then(function (data) { fill(list, data.results || []); })
          .catch(function () { /* offline: typing the federation ID still works */ });
      }, 250);
    });
  });
}());
