/* Event forms: on a new event, preselect the browser's time zone; always show the chosen zone
   beside the deadline box. The server reads the deadline in that zone and stores it in UTC, so
   without this script the form still works (the zone is then chosen by hand, UTC by default). */
(function () {
  "use strict";

  function setup() {
    var select = document.querySelector("select[data-time-zone]");
    if (!select) return;
    if (select.getAttribute("data-detect") === "1" && window.Intl) {
      var zone = "";
      try {
        zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
      } catch (error) {
        zone = "";
      }
      var known = Array.prototype.some.call(select.options, function (option) {
        return option.value === zone;
      });
      if (known) select.value = zone;
    }
    var labels = document.querySelectorAll("[data-time-zone-label]");
    function show() {
      Array.prototype.forEach.call(labels, function (label) {
        label.textContent = select.value;
      });
    }
    select.addEventListener("change", show);
    show();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
