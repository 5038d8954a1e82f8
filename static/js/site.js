// Behaviour every page shares, kept out of the HTML so the Content-Security-Policy allows
// scripts from this site only (no inline scripts, no on* attributes, no style attributes).
(function () {
  "use strict";

  // A <select data-autosubmit> sends its form when it changes (the language switch, filters).
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });

  // Progress bars: the width of the fill follows aria-valuenow.
  function paint(bar, percent) {
    var fill = bar.querySelector("span");
    bar.setAttribute("aria-valuenow", percent);
    if (fill) { fill.style.width = percent + "%"; }
  }
  document.querySelectorAll(".progress[aria-valuenow]").forEach(function (bar) {
    paint(bar, bar.getAttribute("aria-valuenow"));
  });

  function text(selector, value) {
    var el = document.querySelector(selector);
    if (el) { el.textContent = value; }
  }

  // A calculation run on the period's page is followed by js/period_progress.js.

  // A list import (or another job) followed from its page: <div data-poll-job="URL">.
  var job = document.querySelector("[data-poll-job]");
  if (job) {
    var jobUrl = job.dataset.pollJob;
    // A form sent from the page (the re-queue button) navigates away: a poll answering during
    // that request must not reload the page over its answer (the reload would take the place
    // of the page the POST redirects to, and its message would be lost).
    var leaving = false;
    document.addEventListener("submit", function () { leaving = true; });
    var pollJob = function () {
      fetch(jobUrl, {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (d) {
        if (leaving) { return; }
        paint(document.querySelector("#progress"), d.progress);
        text("#job-percent", d.progress);
        text("#job-phase", d.message);
        var st = document.querySelector("#job-status"); st.dataset.status = d.status; st.textContent = d.status_label;
        if (d.status !== "queued") {  // a worker took it: no longer waiting
          ["#job-waiting", "#requeue-form"].forEach(function (s) { var el = document.querySelector(s); if (el) { el.hidden = true; } });
        }
        // Finished, or stuck in the queue long enough to offer the re-queue button: show it.
        if (d.done || (d.stalled && !document.querySelector("#requeue-form"))) { window.location.reload(); }
        else { setTimeout(pollJob, 1000); }
      }).catch(function () { setTimeout(pollJob, 3000); });
    };
    setTimeout(pollJob, 500);
  }
  // The calculator page: a line's federation ID field searches the registry by name while
  // typing (suggestions: federation IDs labelled with name and rating in the chosen system);
  // picking one fills the opponent's rating. Without JavaScript both stay plain inputs.
  var calc = document.getElementById("calculator-form");
  if (calc) {
    var searchUrl = calc.dataset.searchUrl;
    var system = calc.querySelector("select[name=system]");
    var found = {};
    var timers = {};
    calc.querySelectorAll("input.calc-pick").forEach(function (input) {
      var list = document.getElementById(input.getAttribute("list"));
      var rating = document.getElementById(input.dataset.ratingInput);
      input.addEventListener("input", function () {
        var query = input.value.trim();
        if (found[query] !== undefined && found[query] !== null && rating) {
          rating.value = found[query];
          return;
        }
        clearTimeout(timers[input.id]);
        if (query.length < 3) { return; }
        timers[input.id] = setTimeout(function () {
          var url = searchUrl + "?q=" + encodeURIComponent(query) + "&system=" + encodeURIComponent(system ? system.value : "");
          fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
            .then(function (r) { return r.ok ? r.json() : {results: []}; })
            .then(function (data) {
              list.textContent = "";
              (data.results || []).forEach(function (p) {
                found[p.fed_id] = p.rating;
                var option = document.createElement("option");
                option.value = p.fed_id;
                option.label = p.name + (p.rating !== null ? " · " + p.rating : "");
                option.textContent = option.label;
                list.appendChild(option);
              });
            })
            .catch(function () { /* offline: typing the rating still works */ });
        }, 250);
      });
    });
  }
})();
