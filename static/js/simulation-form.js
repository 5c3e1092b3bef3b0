/* Simulation form: show only the decks (the checkboxes and the gauntlet's own deck) and agents of
   the game chosen. Every deck checkbox
   carries its game (data-game) and every agent option the games that offer it (data-games);
   choosing a game hides (and disables, so they are not sent) the other games' decks and selects
   the game's default agent. The server checks all of it again, so without this script the form
   still refuses a deck of another game or an agent the game does not offer, with a message. */
(function () {
  "use strict";

  function setup() {
    var form = document.querySelector("form[data-simulation-form]");
    var data = document.getElementById("simulation-agent-offers");
    if (!form || !data) return;
    var offers = JSON.parse(data.textContent);
    var game = form.querySelector("select[name=game]");
    var agent = form.querySelector("select[name=agent]");
    var decks = form.querySelectorAll("input[name=decks]");
    var hero = form.querySelector("select[name=hero]");
    if (!game) return;

    function offer(choose) {
      var slug = game.value;
      Array.prototype.forEach.call(decks, function (box) {
        var shown = box.getAttribute("data-game") === slug;
        var row = box.closest(".deck-choice");
        if (row) row.hidden = !shown;
        box.disabled = !shown;
      });
      if (hero) {
        Array.prototype.forEach.call(hero.options, function (choice) {
          var other = choice.value && choice.getAttribute("data-game") !== slug;
          choice.hidden = other;
          choice.disabled = other;
        });
        var picked = hero.options[hero.selectedIndex];
        if (picked && picked.disabled) hero.value = "";
      }
      var names = offers[slug] || null;
      if (!agent || !names) return;
      Array.prototype.forEach.call(agent.options, function (choice) {
        var shown = names.indexOf(choice.value) >= 0;
        choice.hidden = !shown;
        choice.disabled = !shown;
      });
      var current = agent.options[agent.selectedIndex];
      if (choose || !current || current.disabled) agent.value = names[0];
    }

    game.addEventListener("change", function () {
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
