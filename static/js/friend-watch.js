/* A spectator's page (/play/friends/<id>/watch/<token>/): a WebSocket to the table's spectator
   route (web/watch.py) sends the delayed public view as HTML, which replaces the play area but
   for the log's groups the message does not send again (those the page shows already, before
   data-log-from: Deckwright.showKeepingLog in deckwright.js); a reconnect is sent the whole log.
   A message carries "refresh_in": after that many seconds the delay lets the next action be
   shown, so the page asks again with {"type": "refresh"} ("wait" says only that, when the page
   shows the position already). A spectator sends no moves. */
(function () {
  "use strict";

  var area = document.querySelector("[data-friend-watch]");
  if (!area) return;
  var connection = document.querySelector("[data-testid=friend-connection]");
  var refused = document.querySelector("[data-testid=friend-refused]");
  var socket = null;
  var retry = 500;
  var timer = null;

  function status(text) {
    if (connection) connection.textContent = text;
  }

  function connect() {
    var address = area.getAttribute("data-socket");
    if (address.charAt(0) === "/") {
      var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      address = scheme + window.location.host + address;
    }
    socket = new WebSocket(address);
    socket.addEventListener("open", function () {
      retry = 500;
      status("Connected: the table updates as the game goes on.");
    });
    socket.addEventListener("message", function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "position" || message.type === "wait") {
        // "wait": the page shows this position already; only when to ask again is new
        if (message.type === "position") window.Deckwright.showKeepingLog(area, message.html);
        if (timer) window.clearTimeout(timer);
        timer = null;
        if (typeof message.refresh_in === "number") {
          timer = window.setTimeout(function () {
            if (socket.readyState === WebSocket.OPEN) {
              socket.send(JSON.stringify({ type: "refresh" }));
            }
          }, Math.ceil(message.refresh_in * 1000) + 250);
        }
      } else if (message.type === "refused") {
        refused.textContent = message.message;
        refused.hidden = false;
      }
    });
    socket.addEventListener("close", function (event) {
      if (event.code === 4403) {
        status("This table cannot be watched with this link.");
        return;
      }
      status("Connection lost: connecting again…");
      window.setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }

  connect();
})();
