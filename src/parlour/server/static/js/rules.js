// A game's short rules, in the chosen language (static/rules/LANG.json), as a disclosure.

import { h } from "./dom.js";
import { gameRules, t } from "./i18n.js";

export function rulesPanel(game, open = false) {
  const rules = gameRules(game);
  if (!rules) return null;
  return h("details.rules", { open },
    h("summary", { text: t("rules.title", { game: rules.title }) }),
    h("p.goal", { text: rules.goal }),
    (rules.sections || []).map((section) => h("section", {},
      h("h3", { text: section.heading }),
      h("ul", {}, section.items.map((item) => h("li", { text: item }))))));
}
