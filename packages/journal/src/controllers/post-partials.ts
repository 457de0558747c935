import type { PartialConfig, StringTable } from '@cms/admin-core';

/** Posts' partials (stub: the partials slice fills it). */
export const postPartials: Record<string, PartialConfig> = {};
export const postPartialStrings: StringTable = { en: {}, de: {} };
