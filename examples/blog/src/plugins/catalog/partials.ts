import type { PartialConfig, StringTable } from '@cms/admin-core';

/** Products' partials: `stock_summary` (stub: the partials slice fills it). */
export const productPartials: Record<string, PartialConfig> = {};
export const partialStrings: StringTable = { en: {}, de: {} };
