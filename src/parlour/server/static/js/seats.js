// The strip of seats of a table: each player's name ("you" for this seat), whether the player is
// here, away or played by the stand-in bot, and the game's facts of the seat (seatFacts).

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The list of seats, #seat-list (each seat an li[data-player]). */
export function seatList(ctx) {
  const f = ctx.frame;
  const items = f.seats.map((s) => {
    let kind;
    if (s.kind !== "person") kind = shortKind(t(`kind.${s.kind}`));
    else if (s.connected) kind = t("table.here");
    else if (s.stand_in) kind = t("table.stand_in", { name: s.name });
    else kind = t("table.away");
    const extra = ctx.board.seatFacts(ctx, s.seat) || [];
    const mover = s.seat === f.to_move && !f.over;
    return h("li.seat", {
      class: `seat${mover ? " to-move" : ""}${s.seat === f.seat ? " me" : ""}${s.stand_in ? " stand-in" : ""}`,
      "data-player": s.seat,
      title: s.kind !== "person" ? t(`kind.${s.kind}`) : null,
    },
    h("span.seat-name", {}, s.name,
      // "you" in words (the match table's ★ marks a winner, never this seat)
      s.seat === f.seat ? [" ", h("span.you-mark", { text: t("table.you") })] : null,
      mover ? h("span.sr-only", { text: ` (${t("table.to_move")})` }) : null),
    h("span.seat-facts", {}, h("span.seat-kind", { text: kind }),
      extra.map((x) => (x instanceof Node ? x : h("span.fact", { text: x })))));
  });
  return h("ul#seat-list.seat-list", { "data-keep-scroll": "seats" }, items);
}

/** "Bot: easy" of "Bot: easy (rules of thumb, careless)": a seat's kind in the strip. */
function shortKind(text) {
  return text.replace(/\s*\([^)]*\)\s*$/, "");
}
