/* /play/ form: the AI's deck list offers only the decks that can face yours. Every option of
   "Your deck" carries the ids of those decks (data-faces, from the game's seating rules); picking
   a deck hides the others and, when the AI's deck chosen cannot face it, picks the first that can.
   The server checks the pair again and says a refusal beside the field, so the form works
   without this script too; a refused pair the page comes back with stays shown until the
   player picks another deck. A deck whose games hide tiles or cards (data-hides) cannot be played
   by the agents listed in #play-agents-needing-open: they are disabled while it is picked. */
(function () {
  "use strict";

  function setup() {
    var form = document.querySelector("form[data-play-form]");
    if (!form) return;
    var deck = form.querySelector("select[name=deck]");
    var opponent = form.querySelector("select[name=opponent]");
    var none = document.getElementById("play-opponent-none");
    var agent = form.querySelector("select[name=agent]");
    var openNote = document.getElementById("play-agent-open");
    var openData = document.getElementById("play-agents-needing-open");
    var needsOpen = openData ? JSON.parse(openData.textContent) : [];
    if (!deck || !opponent) return;

    function offerAgents(keep) {
      if (!agent || !needsOpen.length) return;
      var option = deck.options[deck.selectedIndex];
      var hides = !!option && option.hasAttribute("data-hides");
      Array.prototype.forEach.call(agent.options, function (choice) {
        var refused = hides && needsOpen.indexOf(choice.value) >= 0 && !(keep && choice.selected);
        choice.hidden = refused;
        choice.disabled = refused;
      });
      var current = agent.options[agent.selectedIndex];
      if (!current || current.disabled) {
        var first = Array.prototype.find.call(agent.options, function (choice) {
          return !choice.disabled;
        });
        if (first) agent.value = first.value;
      }
      if (openNote) openNote.hidden = !hides;
    }

    function offer(keep) {
      var option = deck.options[deck.selectedIndex];
      var faces = option ? (option.getAttribute("data-faces") || "").split(" ") : [];
      var first = null;
      var other = null;
      Array.prototype.forEach.call(opponent.options, function (choice) {
        // "Your deck again" (a co-operative game's empty value) is always offered
        var shown =
          choice.value === "" || faces.indexOf(choice.value) >= 0 || (keep && choice.selected);
        choice.hidden = !shown;
        choice.disabled = !shown;
        if (shown && choice.value !== "" && faces.indexOf(choice.value) >= 0) {
          if (first === null) first = choice;
          if (other === null && choice.value !== deck.value) other = choice;
        }
      });
      var current = opponent.options[opponent.selectedIndex];
      if (!current || current.disabled) {
        var pick = other || first;
        if (pick) opponent.value = pick.value;
        else if (opponent.querySelector("option[value='']")) opponent.value = "";
      }
      if (none) none.hidden = first !== null;
    }

    deck.addEventListener("change", function () {
      offer(false);
      offerAgents(false);
    });
    offer(true);
    offerAgents(true);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
