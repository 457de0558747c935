import type { ControllerActions, StringTable } from '@cms/admin-core';

/** Posts' record, bulk and toolbar actions (stub: the actions slice fills it). */
export const postActions: ControllerActions = {};
export const postBulkActions: Array<{ name: string; label: string; confirm?: string }> = [];
export const postToolbarButtons: string[] = ['create', 'delete'];
export const postActionStrings: StringTable = { en: {}, de: {} };
