/* The period page's progress bar: follows the calculation run's phases (ratings/calculation/
   progress.py) by polling the progress URL, and reloads the page once the run is over.
   Loaded as a static file (no inline script: strict CSP). */
(function () {
  "use strict";
  var bar = document.getElementById("progress");
  if (!bar) { return; }
  var fill = bar.querySelector("span");
  var url = bar.dataset.url;
  function show(percent) {
    fill.style.width = percent + "%";
    bar.setAttribute("aria-valuenow", String(percent));
    document.getElementById("run-percent").textContent = String(percent);
  }
  show(parseInt(bar.getAttribute("aria-valuenow") || "0", 10));
  if (bar.dataset.active !== "1") { return; }
  function poll() {
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (d) {
      show(d.progress);
      document.getElementById("run-phase").textContent = d.phase;
      var st = document.getElementById("run-status");
      st.dataset.status = d.status;
      st.textContent = d.status_text;
      if (!d.done) { setTimeout(poll, 300); } else { setTimeout(function () { window.location.reload(); }, 400); }
    }).catch(function () { setTimeout(poll, 1500); });
  }
  poll();
})();
