/* A friend table (/play/friends/<id>/): the page keeps a WebSocket to the table
   (web/consumers.py). The server sends this seat its own view as HTML, which replaces the play
   area but for the log's groups the message does not send again (those the page shows already,
   before data-log-from); play-table.js then matches clicks on the table as on /play/ and clicks
   a word button, which this script sends as a move with the move count the page showed
   ("seen"), so a move chosen on a position that has changed since is refused by the server. A
   lost connection is opened again, and the server sends the position as it stands, its whole
   log with it: a reload resumes the game.
   While chairs are free the server says how many; when that count changes (a chair was taken)
   the page reloads to list the chairs, and when the game starts it reloads to show it.
   Every few seconds the page pings the table, so the server knows this seat is here and acts
   on a deadline past (the AI playing for a player away, a clock run out); the clocks in the
   position count down here between messages, the server's time being the one that counts. */
(function () {
  "use strict";

  var area = document.querySelector("[data-friend-table]");
  if (!area) return;
  var connection = document.querySelector("[data-testid=friend-connection]");
  var refused = document.querySelector("[data-testid=friend-refused]");
  var socket = null;
  var retry = 500;
  var PING_MS = 10000;
  var received = Date.now();

  function clockText(ms) {
    var seconds = Math.max(0, Math.floor(ms / 1000));
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    var mm = hours ? (minutes < 10 ? "0" : "") + minutes : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tick() {
    var elapsed = Date.now() - received;
    Array.prototype.forEach.call(area.querySelectorAll("[data-clock][data-running]"), function (c) {
      var text = c.querySelector("[data-clock-text]");
      if (text) text.textContent = clockText(Number(c.getAttribute("data-left-ms")) - elapsed);
    });
  }

  function status(text) {
    if (connection) connection.textContent = text;
  }

  // The log's groups before data-log-from are not sent again: they are kept from the page.
  // A position can come again with no move made since (a player back at the table, a second
  // notice of one change, a connection opened again): the event says so, and play-table.js
  // then keeps the picks clicked so far on the redrawn table.
  function show(message) {
    var same = area.getAttribute("data-seen") === String(message.seen);
    window.Deckwright.showKeepingLog(area, message.html);
    received = Date.now();
    area.setAttribute("data-seen", String(message.seen));
    document.dispatchEvent(
      new CustomEvent("deckwright:table-updated", { detail: { samePosition: same } })
    );
  }

  function connect() {
    var address = area.getAttribute("data-socket"); // a path here, or a whole ws:// URL
    if (address.charAt(0) === "/") {
      var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      address = scheme + window.location.host + address;
    }
    socket = new WebSocket(address);
    socket.addEventListener("open", function () {
      retry = 500;
      if (!area.hasAttribute("data-friend-waiting")) {
        status("Connected: moves are sent to the table as you make them.");
      }
    });
    socket.addEventListener("message", function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "position" && area.hasAttribute("data-friend-waiting")) {
        window.location.reload(); // the last chair was taken: the game has started
      } else if (message.type === "position") {
        show(message);
      } else if (message.type === "waiting") {
        if (area.getAttribute("data-free") !== String(message.free)) {
          window.location.reload(); // a chair was taken: the page lists the chairs anew
        }
        status(message.message);
      } else if (message.type === "refused") {
        refused.textContent = message.message;
        refused.hidden = false;
      }
    });
    socket.addEventListener("close", function (event) {
      if (event.code === 4401 || event.code === 4403) {
        status("This table is not yours to play: sign in as a player seated at it.");
        return;
      }
      status("Connection lost: connecting again…");
      window.setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }

  area.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-action]");
    if (!button || !area.contains(button)) return;
    event.preventDefault();
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      status("Not connected: the move was not sent. Connecting again…");
      return;
    }
    refused.hidden = true;
    Array.prototype.forEach.call(area.querySelectorAll("button[data-action]"), function (b) {
      b.disabled = true; // one move per position; the next position enables its own
    });
    socket.send(
      JSON.stringify({
        type: "move",
        action: Number(button.getAttribute("data-action")),
        seen: Number(area.getAttribute("data-seen")),
      })
    );
  });

  window.setInterval(tick, 250);
  window.setInterval(function () {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "ping" }));
    }
  }, PING_MS);

  connect();
})();
