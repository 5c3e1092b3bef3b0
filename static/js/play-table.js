/* /play/: act by clicking the table. Every word button of the player's choices carries the
   picks its action is taken by (data-path: tokens such as "hand0:village-green card:17
   cell:b2", rendered by the server from the game's plugin, rules/engines/core/picks.py), and
   every card, square and control chip that can be clicked carries its token (data-pick). This
   script knows no game: it keeps the picks clicked so far, outlines what may be clicked next,
   and once the picks lead to exactly one path it clicks that path's word button, so the move
   goes by the same form (and htmx post) as a click on the button. A click on something no path
   goes through says why next to the table. The server makes the paths unambiguous (none is the
   beginning of another), so a finished path is always one action. */
(function () {
  "use strict";

  var chosen = []; // the picks clicked so far
  var chosenElements = [];
  var chosenAt = []; // each one's place among the table's elements of the same token

  function area() {
    return document.querySelector("[data-play-table]");
  }

  function paths(root) {
    return Array.prototype.map.call(root.querySelectorAll("button[data-path]"), function (button) {
      return { button: button, picks: button.getAttribute("data-path").split(" ") };
    });
  }

  function matching(root) {
    return paths(root).filter(function (path) {
      for (var i = 0; i < chosen.length; i++) {
        if (path.picks[i] !== chosen[i]) return false;
      }
      return path.picks.length > chosen.length;
    });
  }

  function say(root, text) {
    var message = root.querySelector(".pick-message");
    if (message) message.textContent = text;
  }

  function nameOf(element) {
    var label = element.querySelector(".tcard-label");
    var text = (label && label.textContent) || element.getAttribute("aria-label") || element.textContent;
    return (text || "This").trim();
  }

  function refresh(root) {
    var next = {};
    matching(root).forEach(function (path) {
      next[path.picks[chosen.length]] = true;
    });
    Array.prototype.forEach.call(root.querySelectorAll("[data-pick]"), function (element) {
      var live = !!next[element.getAttribute("data-pick")];
      element.classList.toggle("pick-live", live);
      element.classList.toggle("pick-chosen", chosenElements.indexOf(element) >= 0);
      if (element.classList.contains("pick-control")) element.hidden = !live;
    });
    root.classList.toggle("picking", chosen.length > 0);
  }

  function reset(root) {
    chosen = [];
    chosenElements = [];
    chosenAt = [];
    refresh(root);
  }

  function ofToken(root, token) {
    return Array.prototype.filter.call(root.querySelectorAll("[data-pick]"), function (element) {
      return element.getAttribute("data-pick") === token;
    });
  }

  function pickedWords() {
    return nameOf(chosenElements[0]) + " picked: now click one of the outlined places, cards or steps (or it again to start over).";
  }

  // The same position drawn again (no move made since): the picks clicked on the old drawing
  // are found on the new one, token by token, so a half-made move is not lost. False when a
  // pick is no longer there or no action goes on from them.
  function carryOver(root) {
    var again = [];
    for (var i = 0; i < chosen.length; i++) {
      var element = ofToken(root, chosen[i])[chosenAt[i]];
      if (!element) return false;
      again.push(element);
    }
    chosenElements = again;
    if (!matching(root).length) return false;
    say(root, pickedWords());
    refresh(root);
    return true;
  }

  function pick(root, element) {
    var token = element.getAttribute("data-pick");
    var all = paths(root);
    if (!all.length) {
      say(root, "It is not your move now: nothing on the table can be used until it is.");
      return;
    }
    var next = matching(root).some(function (path) {
      return path.picks[chosen.length] === token;
    });
    // a second click on a picked element starts over, unless a path goes through it again (a
    // card that is both targets of one action: "card:40 card:40")
    if (!next && chosen.length && chosenElements.indexOf(element) >= 0) {
      reset(root);
      say(root, "Started over: click what you want to act with.");
      return;
    }
    chosen.push(token);
    var left = matching(root).concat(
      paths(root).filter(function (path) {
        return path.picks.length === chosen.length && path.picks.join(" ") === chosen.join(" ");
      })
    );
    if (!left.length) {
      chosen.pop();
      if (chosen.length) {
        say(
          root,
          nameOf(element) + " is not a target of " + nameOf(chosenElements[0]) +
            ": click an outlined one, or " + nameOf(chosenElements[0]) + " again to start over."
        );
      } else {
        say(root, nameOf(element) + ": none of your legal actions uses it now. What you can use is outlined.");
      }
      return;
    }
    chosenElements.push(element);
    chosenAt.push(ofToken(root, token).indexOf(element));
    var done = left.filter(function (path) {
      return path.picks.length === chosen.length;
    });
    if (done.length === 1 && left.length === 1) {
      // the picks are spent: if the move is refused without a new table (a 429, a lost
      // connection), the next click starts a new path rather than extending this one
      reset(root);
      say(root, "Playing: " + done[0].button.textContent.trim());
      done[0].button.click();
      return;
    }
    say(root, pickedWords());
    refresh(root);
  }

  document.addEventListener("click", function (event) {
    var root = area();
    if (!root || !root.contains(event.target)) return;
    var element = event.target.closest("[data-pick]");
    if (!element || !root.contains(element)) return;
    if (!root.querySelector("button[data-path]") && element.tagName === "A") return; // a card's page
    event.preventDefault();
    pick(root, element);
  });

  document.addEventListener("keydown", function (event) {
    var root = area();
    if (event.key === "Escape" && root && chosen.length) {
      reset(root);
      say(root, "Started over: click what you want to act with.");
    }
  });

  // a move htmx could not deliver, or whose answer it does not swap in (the 429 page, a
  // server error): say so by the table, so the click is not silently lost
  function notSent(event) {
    var root = area();
    if (!root || !root.contains(event.target)) return;
    var xhr = event.detail && event.detail.xhr;
    var why = xhr && xhr.status === 429 ? "too many moves in a minute, wait a moment"
      : xhr && xhr.status ? "the server answered " + xhr.status
      : "the connection failed";
    reset(root);
    say(root, "The move was not played (" + why + "): click it again to retry.");
  }
  document.addEventListener("htmx:responseError", notSent);
  document.addEventListener("htmx:sendError", notSent);

  function setup(event) {
    var root = area();
    if (!root) return;
    var same = event && event.detail && event.detail.samePosition;
    if (!(same && chosen.length && carryOver(root))) reset(root);
    root.setAttribute("data-picks-ready", ""); // clicks are matched from now on
  }
  document.addEventListener("htmx:afterSettle", setup);
  document.addEventListener("deckwright:table-updated", setup); // a friend table's new position
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
