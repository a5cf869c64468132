// A table's socket: one seat's (or a spectator's) connection to its room. app.js opens it as
// soon as the page knows the room, while the table's modules and words are still loading; what
// arrives before the table listens is held for it. Lost (a network down, a restarting server),
// it is opened again, more slowly each time; the table says what a close means (table.js).

const TOKEN_KEY = (room) => `parlour.token.${room}`;

/** The seat's token for room `roomId`: the one in the link's fragment (#t=...), kept in this
 * tab's storage and dropped from the address bar (and so from the history and from anything
 * copied from the bar); else the one this tab kept; null for a spectator. */
export function seatToken(roomId) {
  const found = /(?:^#|&)t=([A-Za-z0-9_-]{16,128})/.exec(location.hash);
  if (found) {
    sessionStorage.setItem(TOKEN_KEY(roomId), found[1]);
    history.replaceState(null, "", location.pathname + location.search);
  } else if (location.hash) {
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY(roomId));
}

/** The room refused the seat's link: this tab forgets its token. */
export function forgetToken(roomId) {
  sessionStorage.removeItem(TOKEN_KEY(roomId));
}

/** The socket of room `roomId` for the seat of `token`, opened now. */
export function openConnection(roomId, token = seatToken(roomId)) {
  const connection = new Connection(roomId, token);
  connection.connect();
  return connection;
}

export class Connection {
  constructor(roomId, token) {
    this.roomId = roomId;
    this.token = token;
    this.ws = null;
    this.retry = 0;
    this.retryTimer = 0;
    this.closedForGood = false;
    this.listener = null; // the table: { receive(msg), closed(event), version() }
    this.held = []; // what came before the table listened: [kind, what]
  }

  /** Hand each message and close to `listener` from now on, those held first; its version()
   * is the version of the room the page has drawn (a hello asks for what came since). */
  listen(listener) {
    this.listener = listener;
    for (const [kind, what] of this.held.splice(0)) listener[kind](what);
  }

  deliver(kind, what) {
    if (this.listener) this.listener[kind](what);
    else this.held.push([kind, what]);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.roomId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (!this.listener) performance.mark("parlour socket"); // opened before the table (bench_pages)
      const v = this.listener ? this.listener.version() : 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token, v }));
    });
    ws.addEventListener("message", (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "welcome" || msg.type === "update") this.retry = 0;
      if (msg.type === "welcome") performance.mark("parlour welcome");
      this.deliver("receive", msg);
    });
    ws.addEventListener("close", (event) => this.deliver("closed", event));
  }

  /** Open the socket again after a while: 0.5 s, then twice as long each time, at most 10 s. */
  later() {
    const wait = Math.min(10000, 500 * 2 ** this.retry++);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Back on the network (or back in the tab after a phone slept): open it again now. */
  revive() {
    if (this.closedForGood || !this.ws || this.ws.readyState !== WebSocket.CLOSED) return;
    clearTimeout(this.retryTimer);
    this.retry = 0;
    this.connect();
  }

  /** Send `frame` if the socket is open; whether it was sent. */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }
}
