/** A controller partial (spec 4.4, 8). DRAFT shape from the pre-wiring; the partials slice owns it. */
export type PartialConfig = Record<string, unknown>;
