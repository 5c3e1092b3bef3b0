/* The manual playtest (/decks/<id>/playtest/): move a card by clicking it and then a zone, or by
   dragging it onto a zone. Both fill the page's one move form ([data-pt-move]) and submit it, so
   the server makes the move exactly as the per-card "Move" forms do without this script (which
   it hides); htmx, when loaded, swaps the new layout in without reloading the page. Listeners
   hang on the document, so they keep working after each swap. */
(function () {
  "use strict";

  var picked = null; // {source, index, name} of the card clicked, until it is placed

  function root() {
    return document.querySelector("[data-playtest]");
  }

  function say(text) {
    var status = document.querySelector("[data-pt-status]");
    if (status) status.textContent = text;
  }

  function clearPick() {
    picked = null;
    var box = root();
    if (!box) return;
    box.classList.remove("pt-picking");
    Array.prototype.forEach.call(box.querySelectorAll(".pt-from"), function (zone) {
      zone.classList.remove("pt-from");
    });
    Array.prototype.forEach.call(box.querySelectorAll(".pt-card.picked"), function (card) {
      card.classList.remove("picked");
      card.removeAttribute("aria-pressed");
    });
  }

  function move(source, index, target) {
    var form = document.querySelector("[data-pt-move]");
    if (!form || source === target) return;
    form.elements.source.value = source;
    form.elements.index.value = index;
    form.elements.target.value = target;
    clearPick();
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  function cardOf(node) {
    return node && node.closest ? node.closest(".pt-card[data-source]") : null;
  }

  function pick(card) {
    clearPick();
    picked = {
      source: card.getAttribute("data-source"),
      index: card.getAttribute("data-index"),
      name: card.getAttribute("data-name"),
    };
    card.classList.add("picked");
    card.closest("[data-zone]").classList.add("pt-from");
    card.setAttribute("aria-pressed", "true");
    root().classList.add("pt-picking");
    say(picked.name + " picked up: click a zone to put it there, Escape to let go.");
  }

  function setup() {
    var box = root();
    if (box) box.classList.add("pt-js");
    if (!picked) return;
    // A layout swapped in while a card was picked up (a slow answer to an earlier move): pick the
    // same card up again on the new layout, or let go of it when it is no longer there.
    var again = box && Array.prototype.filter.call(
      box.querySelectorAll(".pt-card[data-source]"),
      function (card) {
        return card.getAttribute("data-source") === picked.source &&
          card.getAttribute("data-index") === picked.index &&
          card.getAttribute("data-name") === picked.name;
      }
    )[0];
    if (again) pick(again);
    else clearPick();
  }

  document.addEventListener("click", function (event) {
    if (!root() || !root().contains(event.target)) return;
    var drop = event.target.closest("[data-drop]");
    if (drop && picked) {
      move(picked.source, picked.index, drop.getAttribute("data-drop"));
      return;
    }
    if (event.target.closest("form, button, select")) return;
    var card = cardOf(event.target);
    if (card) {
      event.preventDefault(); // a card's link opens its page only without this script
      if (picked && picked.source === card.getAttribute("data-source") &&
          picked.index === card.getAttribute("data-index")) {
        clearPick();
        say("Let go.");
      } else if (picked && picked.source !== card.getAttribute("data-source")) {
        move(picked.source, picked.index, card.closest("[data-zone]").getAttribute("data-zone"));
      } else {
        pick(card);
      }
      return;
    }
    var zone = event.target.closest("[data-zone]");
    if (zone && picked) move(picked.source, picked.index, zone.getAttribute("data-zone"));
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && picked) {
      clearPick();
      say("Let go.");
      return;
    }
    var card = cardOf(event.target);
    if (card && card.getAttribute("role") === "button" && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      card.click();
    }
  });

  document.addEventListener("dragstart", function (event) {
    var card = cardOf(event.target);
    if (!card || !root()) return;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData(
      "text/plain",
      card.getAttribute("data-source") + "\n" + card.getAttribute("data-index")
    );
    root().classList.add("pt-dragging");
  });

  document.addEventListener("dragend", function () {
    var box = root();
    if (box) box.classList.remove("pt-dragging");
    Array.prototype.forEach.call(document.querySelectorAll(".pt-zone.drop-here"), function (zone) {
      zone.classList.remove("drop-here");
    });
  });

  document.addEventListener("dragover", function (event) {
    var zone = event.target.closest && event.target.closest(".pt-zone[data-zone]");
    if (!zone) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    zone.classList.add("drop-here");
  });

  document.addEventListener("dragleave", function (event) {
    var zone = event.target.closest && event.target.closest(".pt-zone[data-zone]");
    if (zone && !zone.contains(event.relatedTarget)) zone.classList.remove("drop-here");
  });

  document.addEventListener("drop", function (event) {
    var zone = event.target.closest && event.target.closest(".pt-zone[data-zone]");
    if (!zone) return;
    event.preventDefault();
    var data = (event.dataTransfer.getData("text/plain") || "").split("\n");
    if (data.length === 2) move(data[0], data[1], zone.getAttribute("data-zone"));
  });

  // A refused action that htmx does not swap in (too many actions a minute, a server error):
  // say so where the page's own errors appear, instead of leaving the click unanswered.
  document.addEventListener("htmx:responseError", function (event) {
    var box = root();
    if (!box || !box.contains(event.target)) return;
    var problem = box.querySelector("[data-pt-problem]");
    if (!problem) return;
    var status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
    problem.textContent = status === 429
      ? "Too many actions for now: wait a minute, then reload the page."
      : "That action did not go through: reload the page to see the current layout.";
    problem.hidden = false;
  });

  // After htmx swaps a new layout in, mark it as scripted again.
  document.addEventListener("htmx:afterSettle", setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
