/* Matchup form: offer only the agents of deck A's game. Every deck option carries its game
   (data-game) and every agent option the games that offer it (data-games); choosing a deck
   selects that game's default agent (the first its plugin lists) and hides the others. The server
   checks the agents again, so without this script the form still refuses an agent a game does
   not offer, with a message. */
(function () {
  "use strict";

  function setup() {
    var form = document.querySelector("form[data-matchup-form]");
    var data = document.getElementById("matchup-agent-offers");
    if (!form || !data) return;
    var offers = JSON.parse(data.textContent);
    var deck = form.querySelector("select[name=deck_a]");
    var agents = form.querySelectorAll("select[name^=agent_]");
    if (!deck) return;

    function offer(choose) {
      var option = deck.options[deck.selectedIndex];
      var game = option ? option.getAttribute("data-game") : null;
      var names = game && offers[game] ? offers[game] : null;
      Array.prototype.forEach.call(agents, function (select) {
        Array.prototype.forEach.call(select.options, function (choice) {
          var shown = !names || names.indexOf(choice.value) >= 0;
          choice.hidden = !shown;
          choice.disabled = !shown;
        });
        var current = select.options[select.selectedIndex];
        if (names && (choose || !current || current.disabled)) select.value = names[0];
      });
    }

    deck.addEventListener("change", function () {
      offer(true);
    });
    offer(false);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
