/**
 * The API's shapes the screens read, from the types generated from the core's OpenAPI document
 * (`src/api/schema.d.ts`, written by `pnpm generate:client`, checked for drift in CI:
 * docs/openapi.md, "Typed clients"). Controller routes are generic: a row is any record.
 */
import type { components } from './api/schema.d.ts';

type Schemas = components['schemas'];

export type NavigationEntry = Schemas['NavigationEntry'];
export type Profile = Schemas['AdminProfile'];
export type ListSchema = Schemas['ListSchema'];
export type ListFilter = Schemas['ListFilter'];
export type ListMeta = Schemas['ListMeta'];
export type BulkAction = Schemas['BulkAction'];
export type ToolbarAction = Schemas['ToolbarAction'];
export type BulkResult = Schemas['BulkResult'];
export type BulkActionResult = Schemas['BulkActionResult'];
export type AdminActionResult = Schemas['AdminActionResult'];
export type LangBundle = Schemas['LangBundle'];
export type Preferences = Schemas['AdminPreferences'];

export type Row = Record<string, unknown> & { id: number };
export type PartialView = Schemas['PartialView'];
export type RowAction = Schemas['RowAction'];
export type FormField = Schemas['FormField'];
export type FormView = Schemas['FormView'];
export type RecordAction = Schemas['RecordAction'];
