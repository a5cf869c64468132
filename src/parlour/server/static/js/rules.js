// A game's short rules, in the chosen language (its catalog's rules.* keys), as a disclosure:
// rules.title, rules.goal, then sections rules.section.N.heading with items rules.section.N.item.M
// (N and M count from 1). The table shows the same rules in a sheet of its own (rulesBody).

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function rulesPanel(words, open = false) {
  const body = rulesBody(words);
  if (!body) return null;
  return h("details.rules", { open },
    h("summary", { text: t("rules.title", { game: words.w("rules.title") }) }),
    body);
}

/** The rules without their disclosure: the goal and the sections (null: the game has none). */
export function rulesBody(words) {
  if (!words || !words.has("rules.title")) return null;
  const sections = [];
  for (let n = 1; words.has(`rules.section.${n}.heading`); n++) {
    const items = [];
    for (let m = 1; words.has(`rules.section.${n}.item.${m}`); m++) items.push(words.w(`rules.section.${n}.item.${m}`));
    sections.push(h("section", {},
      h("h3", { text: words.w(`rules.section.${n}.heading`) }),
      h("ul", {}, items.map((item) => h("li", { text: item })))));
  }
  return h("div.rules-body", {},
    words.has("rules.goal") ? h("p.goal", { text: words.w("rules.goal") }) : null,
    sections);
}
