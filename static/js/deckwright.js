/* Deckwright's own script: htmx settings, the keyboard-friendly card autocomplete, the replay's
   arrow keys and confirmations before destructive forms. Every page works without it; it only
   makes pages quicker to use. Pages carry no inline script (the Content-Security-Policy allows
   none): behaviour hangs on data- attributes here. */
(function () {
  "use strict";

  // A friend table's message (a seat's or a spectator's) replaces its play area but for the
  // log's groups before data-log-from: the message does not send those again, the page keeps
  // them (templates/web/_friend_log.html).
  window.Deckwright = window.Deckwright || {};
  window.Deckwright.showKeepingLog = function (area, html) {
    var held = area.querySelectorAll("[data-friend-log] > [data-log-group]");
    area.innerHTML = html;
    var log = area.querySelector("[data-friend-log]");
    var from = log ? Number(log.getAttribute("data-log-from")) || 0 : 0;
    var first = log ? log.firstChild : null;
    for (var i = 0; i < from && i < held.length; i++) log.insertBefore(held[i], first);
  };

  // Error answers carry inline messages (a refused card, a bad decklist): swap them in too.
  if (window.htmx) {
    window.htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "(400|409|422|503)", swap: true, error: false },
      { code: "[45]..", swap: false, error: true },
    ];
  }

  // The main menu on a narrow screen: the links fold behind a "Menu" button (the CSS folds them
  // only once this script has shown the button, so without it they stay in view).
  function setupMenu() {
    var button = document.querySelector(".menu-toggle");
    var links = button && document.getElementById(button.getAttribute("aria-controls"));
    if (!button || !links) return;
    button.hidden = false;
    document.documentElement.classList.add("menu-folds");
    button.addEventListener("click", function () {
      var open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", open ? "true" : "false");
      links.classList.toggle("open", open);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        button.setAttribute("aria-expanded", "false");
        links.classList.remove("open");
        button.focus();
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setupMenu);
  } else {
    setupMenu();
  }

  function setupCombobox(input) {
    var list = document.getElementById(input.getAttribute("aria-controls"));
    var form = input.form;
    var active = -1;
    // the name of the highlighted card: a list redrawn by a late answer keeps it highlighted
    var activeName = null;

    function options() {
      return Array.prototype.slice.call(list.querySelectorAll('[role="option"]'));
    }
    function highlight(index) {
      var opts = options();
      opts.forEach(function (option, i) {
        option.setAttribute("aria-selected", i === index ? "true" : "false");
      });
      active = index;
      activeName = index >= 0 && opts[index] ? opts[index].getAttribute("data-name") : null;
      if (index >= 0 && opts[index]) {
        input.setAttribute("aria-activedescendant", opts[index].id);
        opts[index].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }
    function close() {
      list.innerHTML = "";
      input.setAttribute("aria-expanded", "false");
      highlight(-1);
    }
    function choose(option) {
      input.value = option.getAttribute("data-name");
      close();
      form.requestSubmit();
    }

    input.addEventListener("keydown", function (event) {
      var opts = options();
      if (event.key === "ArrowDown" && opts.length) {
        event.preventDefault();
        highlight((active + 1) % opts.length);
      } else if (event.key === "ArrowUp" && opts.length) {
        event.preventDefault();
        highlight(active <= 0 ? opts.length - 1 : active - 1);
      } else if (event.key === "Enter") {
        if (active >= 0 && opts[active]) {
          event.preventDefault();
          choose(opts[active]);
        } else {
          close();
        }
      } else if (event.key === "Escape") {
        close();
      }
    });
    list.addEventListener("mousedown", function (event) {
      var option = event.target.closest('[role="option"]');
      if (option) {
        event.preventDefault();
        choose(option);
      }
    });
    // The list is redrawn by every answer; an answer that comes after the arrow keys (typing
    // faster than the server answers) keeps the card they picked, if the list still holds it.
    list.addEventListener("htmx:afterSwap", function () {
      var opts = options();
      var kept = -1;
      opts.forEach(function (option, i) {
        if (activeName !== null && option.getAttribute("data-name") === activeName) kept = i;
      });
      input.setAttribute("aria-expanded", opts.length ? "true" : "false");
      highlight(kept);
    });
    input.addEventListener("blur", function () {
      window.setTimeout(close, 150);
    });
    // A successful change clears the box for the next card (a refused one keeps the text).
    document.body.addEventListener("deck-changed", function (event) {
      if (event.target === form) {
        input.value = "";
        close();
        input.focus();
      }
    });
  }

  // Escape hides the card preview of the focused row (it shows again on the next hover or focus).
  function setupPreviews() {
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape") {
        return;
      }
      var row = document.activeElement && document.activeElement.closest(".deck-row");
      if (row) {
        row.classList.add("preview-dismissed");
      }
    });
    ["mouseover", "focusout"].forEach(function (kind) {
      document.addEventListener(kind, function (event) {
        var row = event.target.closest && event.target.closest(".deck-row.preview-dismissed");
        if (row) {
          row.classList.remove("preview-dismissed");
        }
      });
    });
  }

  // <a data-key="ArrowLeft">: the key follows the link (the replay's previous and next step),
  // unless a form field has the focus or a modifier is held.
  function setupKeyLinks() {
    if (!document.querySelector("a[data-key]")) {
      return;
    }
    document.addEventListener("keydown", function (event) {
      var tag = (event.target.tagName || "").toLowerCase();
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (tag === "input" || tag === "select" || tag === "textarea") return;
      var link = document.querySelector('a[data-key="' + event.key + '"]');
      if (link) {
        event.preventDefault();
        link.click();
      }
    });
  }

  // <form data-confirm="Delete this deck?">: the browser asks before the form is sent.
  function setupConfirmations() {
    document.addEventListener("submit", function (event) {
      var form = event.target;
      var question = form.getAttribute && form.getAttribute("data-confirm");
      if (question && !window.confirm(question)) {
        event.preventDefault();
      }
    });
  }

  function setup() {
    setupKeyLinks();
    setupConfirmations();
    setupPreviews();
    document.querySelectorAll("input[data-combobox]").forEach(setupCombobox);
    var paste = document.getElementById("paste-form");
    if (paste) {
      document.body.addEventListener("deck-changed", function (event) {
        if (event.target === paste) {
          paste.reset();
        }
      });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
