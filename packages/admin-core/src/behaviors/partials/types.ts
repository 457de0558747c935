// What a controller's `partials` holds lives with the other configuration types in `controllers/`;
// the rendered node tree stays here (docs/architecture.md, "Behaviours").
export type { PartialConfig, PartialContext } from '../../controllers/partial-config.ts';

/**
 * One node of a rendered partial (docs/partials.md, "The node format"). An element is `{tag, attrs, children}`
 * (all three always present; `tag` in lower case); a text is `{text}` alone.
 */
export type PartialNode = PartialElement | PartialText;
export interface PartialElement {
  tag: string;
  attrs: Record<string, string>;
  children: PartialNode[];
}
interface PartialText {
  text: string;
}

/** `GET /{ctl}/partials/{name}` answers this PartialView in the success envelope (docs/partials.md, "The route"). */
export interface PartialView {
  nodes: PartialNode[];
}
