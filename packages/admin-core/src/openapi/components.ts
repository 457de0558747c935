import { ERROR_CODES, STATUS_BY_KIND } from '../errors/codes.ts';
import { ROW_STATES } from '../controllers/types.ts';
import { FORM_MESSAGES, LIST_MESSAGES, RELATION_MESSAGE_KEYS } from '../controllers/types.ts';
import { anyValue, arrayOf, boolean, exact, integer, mapOf, nullable, number, object, string, ID } from '../schema/json.ts';
import { ref, type Header, type Response, type Schema } from '../schema/types.ts';

/*
 * The objects every admin serves, whatever its plugins (spec 2.1-2.7; docs/openapi.md, "What it
 * describes"): envelopes, errors, account and auth objects, schemas of forms, lists and
 * relations, files, actions and partials. Per-controller schemas (records, rows, bodies) are made
 * by controllers.ts.
 */

/** An object of CLDR plural form to text; `other` is always there. */
const PLURAL_FORMS = object(Object.fromEntries(['zero', 'one', 'two', 'few', 'many', 'other'].map((form) => [form, string()])), ['other']);

const messages = (keys: readonly string[]) => exact(Object.fromEntries(keys.map((key) => [key, ref('PluralForms')])));

/** A string, number, boolean or null (`anyOf` cannot carry `nullable`: the string branch admits null). */
const SCALAR_VALUE: Schema = { anyOf: [string({ nullable: true }), number(), boolean()] };
const OPTION = exact({ label: string(), value: { anyOf: [string(), boolean()] } });

/** FormField (spec 2.5): the keys every field may carry, and those built-in and plugin field types add. */
const FORM_FIELD = object(
  {
    name: string(),
    type: string({ description: 'A built-in field type, or the alias of a plugin field type.' }),
    label: string(),
    comment: string(),
    tab: string(),
    span: string({ enum: ['auto', 'left', 'right', 'full', 'row'] }),
    size: string(),
    required: boolean(),
    readOnly: boolean(),
    multiple: boolean(),
    context: { anyOf: [string(), arrayOf(string())] },
    default: SCALAR_VALUE,
    attributes: mapOf(SCALAR_VALUE),
    options: arrayOf(OPTION),
    emptyOption: string(),
    nameFrom: string(),
    relation: string(),
    preset: exact({ field: string(), type: string({ enum: ['slug', 'exact'] }) }),
    action: string(),
    actionLabel: string(),
    widget: string(),
    fill: arrayOf(string()),
    path: string(),
    deferrable: boolean(),
    fileTypes: arrayOf(string()),
    mimeTypes: arrayOf(string()),
    maxFiles: integer(),
    maxFilesize: number(),
    imageWidth: integer(),
    imageHeight: integer(),
    mode: string(),
    prompt: string(),
    protected: boolean(),
    useCaption: boolean(),
    thumbOptions: exact({ mode: string({ enum: ['crop', 'fit'] }) }),
    format: string(),
    displayFormat: string(),
    minDate: string({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    maxDate: string({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    firstDay: integer({ minimum: 0, maximum: 6 }),
    yearRange: arrayOf(integer(), { minItems: 1, maxItems: 2 }),
    ignoreTimezone: boolean(),
    twelveHour: boolean(),
    separator: string(),
    customTags: boolean(),
    uploadRoute: string({
      description:
        'markdown: the path on this origin where the editor uploads images (multipart `file`, answering 201 `{data: {url}}`); its URL goes into the text as `![name](url)`.',
    }),
    typeOptions: mapOf(anyValue()),
    element: string(),
    translatable: boolean(),
    // Keys built-in types add (docs/field-types.md): number and money bounds, money scale and currency, permissions.
    min: { anyOf: [number(), string()] },
    max: { anyOf: [number(), string()] },
    step: number(),
    scale: integer({ minimum: 2, maximum: 4 }),
    currency: string(),
    currencyFrom: string(),
    permissionTabs: arrayOf(
      exact({
        label: string(),
        permissions: arrayOf(object({ code: string(), label: string(), locked: boolean({ enum: [true] }) }, ['code', 'label'])),
      }),
    ),
  },
  ['name', 'type'],
);

const CONTROLLER_ASSETS = exact({ scripts: arrayOf(string()), styles: arrayOf(string()) });

const REDIRECT = exact({ redirect: string(), redirectClose: string() });

const LIST_COLUMN = object(
  {
    key: string(),
    label: string(),
    searchable: boolean(),
    sortable: boolean(),
    relation: string(),
    select: string(),
    type: string(),
    currency: string(),
    currencyFrom: string(),
  },
  ['key', 'label', 'searchable', 'sortable'],
);

const LIST_FILTER = object(
  {
    name: string(),
    type: string({ enum: ['group', 'scope', 'daterange', 'switch', 'text'] }),
    label: string(),
    column: string(),
    modelClass: string(),
    nameFrom: string(),
    scope: string(),
    options: arrayOf(exact({ label: string(), value: string() })),
    trueValue: SCALAR_VALUE,
    falseValue: SCALAR_VALUE,
  },
  ['name', 'type', 'label'],
);

const RELATION_PANEL = exact({
  list: exact({ columns: arrayOf(exact({ key: string(), label: string(), searchable: boolean(), sortable: boolean() })) }),
  showSearch: boolean(),
  toolbarButtons: arrayOf(string({ enum: ['create', 'update', 'delete', 'link', 'unlink'] })),
});

const NAVIGATION_ENTRY = exact({
  code: string(),
  controller: string(),
  icon: string(),
  label: string(),
  order: integer(),
  sideMenu: arrayOf(ref('NavigationEntry')),
});

const PARTIAL_ELEMENT = exact({ tag: string(), attrs: mapOf(string()), children: arrayOf(ref('PartialNode')) });
const PARTIAL_TEXT = exact({ text: string() });

/** FileItem (spec 2.4, docs/files.md): `url` and `thumb_url` only for public files. */
const FILE_ITEM = object(
  {
    id: ID,
    file_name: string(),
    file_size: integer({ minimum: 0 }),
    content_type: string(),
    title: string(),
    description: string(),
    sort_order: integer(),
    created_at: string({ format: 'date-time' }),
    pending: boolean(),
    url: string(),
    thumb_url: string(),
  },
  ['id', 'file_name', 'file_size', 'content_type', 'title', 'description', 'sort_order', 'created_at', 'pending'],
);

const API_TOKEN_FIELDS = {
  id: ID,
  name: string(),
  token_prefix: string(),
  created_at: string({ format: 'date-time' }),
  expires_at: string({ format: 'date-time', nullable: true }),
  last_used_at: string({ format: 'date-time', nullable: true }),
};

/** The shared schemas, by component name. */
export function sharedSchemas(): Record<string, Schema> {
  return {
    PluralForms: PLURAL_FORMS,
    LangBundle: mapOf(ref('PluralForms'), { description: 'Every string key of the admin as plural forms.' }),
    EmptyMeta: object({}, [], { description: 'An empty `meta`.' }),
    ListMeta: object(
      {
        last_page: integer({ minimum: 1 }),
        page: integer({ minimum: 1 }),
        per_page: integer({ minimum: 1 }),
        total: integer({ minimum: 0 }),
        total_estimated: boolean({
          enum: [true],
          description:
            'Present when `total` is an estimate of an unfiltered list of a large table (docs/performance.md, "Counts"); absent when exact.',
        }),
        row_states: mapOf(arrayOf(string({ enum: [...ROW_STATES] })), { description: 'Row id to its states; absent when no row has one.' }),
      },
      ['last_page', 'page', 'per_page', 'total'],
    ),
    Scalar: SCALAR_VALUE,
    RelationOption: object({ label: string(), value: ID, locked: boolean() }, ['label', 'value']),
    RecordAction: object({ name: string(), label: string(), confirm: string(), danger: boolean({ enum: [true] }) }, ['name', 'label'], {
      description: 'A record action the admin may run on this record; `danger` only when true.',
    }),
    FieldNotice: exact({ field: string(), message: string(), locale: string() }),
    AdminLoginRequest: object(
      {
        login: string({ maxLength: 255 }),
        email: string({ maxLength: 255 }),
        password: string({ maxLength: 1024, writeOnly: true, format: 'password' }),
      },
      ['password'],
      { description: 'Exactly one of `login` and `email`, and the password.' },
    ),
    AdminLoginData: object(
      {
        token_type: string({ enum: ['Bearer', 'cookie'] }),
        access_token: string({ description: 'Bearer transport only: the cookie transport carries it in the `cms_admin` cookie.' }),
        expires_in: integer({ minimum: 1, description: 'Seconds until the token expires.' }),
      },
      ['token_type', 'expires_in'],
    ),
    AdminLogoutData: exact({ status: string({ enum: ['logged_out'] }) }),
    AdminRoleSummary: exact({ id: ID, code: string(), name: string() }),
    AdminPreferences: exact({ admin_theme: string({ nullable: true }), admin_locale: string({ nullable: true }) }),
    AdminAvatar: exact({ url: string(), thumb_url: string({ description: 'A 250x250 crop.' }) }),
    AdminProfile: object(
      {
        id: ID,
        login: string(),
        email: string(),
        first_name: string(),
        last_name: string(),
        subtitle: string(),
        is_superuser: boolean(),
        role: ref('AdminRoleSummary'),
        preferences: ref('AdminPreferences'),
        avatar: exact({ url: string({ nullable: true }), thumb_url: string({ nullable: true }) }),
      },
      ['id', 'login', 'email', 'first_name', 'last_name', 'subtitle', 'is_superuser', 'preferences', 'avatar'],
    ),
    ApiToken: exact(API_TOKEN_FIELDS, { description: 'A personal API token as its owner sees it: never the token itself.' }),
    CreatedApiToken: exact(
      { ...API_TOKEN_FIELDS, token: string({ description: 'The token, shown this one time only.' }) },
      { description: 'The answer of a create: the summary and the token.' },
    ),
    NavigationEntry: NAVIGATION_ENTRY,
    SettingsEntry: exact({
      category: string(),
      code: string(),
      controller: string({ description: 'Empty for a settings form; the controller address of a link entry.' }),
      description: string(),
      icon: string(),
      keywords: arrayOf(string()),
      label: string(),
      model: string(),
      order: integer(),
    }),
    FieldTypeInfo: object(
      {
        alias: string(),
        plugin: string(),
        element: string(),
        translatable: boolean(),
        options: arrayOf(string()),
        scripts: arrayOf(string()),
        styles: arrayOf(string()),
        upload: object({ maxBytes: integer({ minimum: 1 }), accept: arrayOf(string()) }, ['maxBytes']),
      },
      ['alias', 'plugin', 'element', 'translatable', 'options', 'scripts', 'styles'],
    ),
    ControllerAssets: CONTROLLER_ASSETS,
    FormField: FORM_FIELD,
    FormMessages: messages(FORM_MESSAGES),
    FormView: object(
      {
        fields: arrayOf(ref('FormField')),
        assets: ref('ControllerAssets'),
        messages: ref('FormMessages'),
        meta: exact({ locale: string() }),
        redirects: exact({ create: REDIRECT, update: REDIRECT, default: string() }),
        name: string(),
        modelClass: string(),
        preview: exact({ headerPartial: string() }),
      },
      ['fields', 'assets', 'messages', 'meta', 'redirects'],
    ),
    ListColumn: LIST_COLUMN,
    ListFilter: LIST_FILTER,
    ListMessages: messages(LIST_MESSAGES),
    BulkAction: object({ name: string(), label: string(), confirm: string() }, ['name', 'label']),
    ToolbarAction: exact({ name: string(), label: string() }),
    RowAction: object({ name: string(), label: string(), url: string() }, ['name']),
    ListSchema: object(
      {
        assets: ref('ControllerAssets'),
        bulkActions: arrayOf(ref('BulkAction')),
        columns: arrayOf(ref('ListColumn')),
        filters: arrayOf(ref('ListFilter')),
        messages: ref('ListMessages'),
        perPageOptions: arrayOf(integer({ minimum: 1 })),
        recordsPerPage: integer({ minimum: 1 }),
        rowActions: arrayOf(ref('RowAction')),
        searchTerm: string(),
        showCheckboxes: boolean(),
        showSearch: boolean(),
        showSetup: boolean(),
        showSorting: boolean(),
        toolbarActions: arrayOf(ref('ToolbarAction')),
        toolbarButtons: arrayOf(string()),
        defaultSort: exact({ column: string(), direction: string({ enum: ['asc', 'desc'] }) }),
        headerPartial: string(),
        meta: exact({ locale: string() }),
        modelClass: string(),
        noRecordsMessage: string(),
        recordUrl: string(),
        searchPrompt: string(),
        title: string(),
        reorder: object({ tree: boolean(), maxDepth: integer({ minimum: 0 }), title: string() }, ['tree', 'maxDepth'], {
          description: 'Present when the controller declares a reorder.',
        }),
      },
      [
        'assets',
        'bulkActions',
        'columns',
        'filters',
        'messages',
        'perPageOptions',
        'recordsPerPage',
        'rowActions',
        'searchTerm',
        'showCheckboxes',
        'showSearch',
        'showSetup',
        'showSorting',
        'toolbarActions',
        'toolbarButtons',
      ],
    ),
    RelationPanel: RELATION_PANEL,
    RelationMessages: messages(RELATION_MESSAGE_KEYS),
    RelationSchema: object(
      {
        name: string(),
        label: string(),
        kind: string({ enum: ['belongsToMany', 'hasMany'] }),
        deferrable: boolean(),
        view: ref('RelationPanel'),
        manage: ref('RelationPanel'),
        messages: ref('RelationMessages'),
        manageForm: arrayOf(ref('FormField')),
        viewForm: arrayOf(ref('FormField')),
        pivotForm: arrayOf(ref('FormField')),
      },
      ['name', 'label', 'kind', 'deferrable', 'view', 'manage', 'messages'],
    ),
    FilterOption: exact({ label: string(), value: string() }),
    FileItem: FILE_ITEM,
    FileMutationResult: exact({ removed: integer({ minimum: 0 }) }),
    RelationLinkResult: exact({ linked: integer({ minimum: 0 }) }),
    RelationRemoveResult: exact({ removed: integer({ minimum: 0 }) }),
    BulkResult: exact({ deleted: integer({ minimum: 0 }) }),
    BulkActionResult: exact({ affected: integer({ minimum: 0 }), message: string() }),
    AdminActionResult: object(
      {
        fill: mapOf(SCALAR_VALUE, { description: 'Field values to write back into the form (widget actions only; else empty).' }),
        message: string(),
        data: anyValue('Any JSON value the action answered (at most 256 KiB encoded).'),
      },
      ['fill', 'message'],
    ),
    AdminIDsRequest: exact({ ids: arrayOf(ID, { minItems: 1, maxItems: 1000 }) }),
    AdminActionRequest: object({
      record_id: ID,
      values: mapOf(anyValue(), {
        description: 'Form values; only the widget field\u2019s `fill` keys with scalar values reach the action.',
      }),
      payload: anyValue('Any JSON value, at most 64 KiB encoded.'),
    }),
    AdminRelationLinkRequest: object(
      {
        ids: arrayOf(ID, { minItems: 1, maxItems: 1000, uniqueItems: true }),
        pivot: mapOf(anyValue(), { description: 'Pivot values (`pivot.form` fields); only with one id.' }),
      },
      ['ids'],
    ),
    AdminRelationIdsRequest: exact({ ids: arrayOf(ID, { minItems: 1, maxItems: 1000, uniqueItems: true }) }),
    AdminFileCaptionRequest: object({ title: string({ maxLength: 255 }), description: string({ maxLength: 65536 }) }),
    AdminFileReorderRequest: exact({
      ids: arrayOf(integer(), { uniqueItems: true, description: 'Every file of the field, in the new order.' }),
    }),
    PartialNode: { oneOf: [ref('PartialElement'), ref('PartialText')] },
    PartialElement: PARTIAL_ELEMENT,
    PartialText: PARTIAL_TEXT,
    PartialView: exact({ nodes: arrayOf(ref('PartialNode')) }),
    ReorderNode: exact({ id: ID, label: string(), parent_id: nullable(ID) }),
    ReorderMeta: object(
      { total: integer({ minimum: 0 }), tree: boolean(), max_depth: integer({ minimum: 0 }), title: string(), modelClass: string() },
      ['total', 'tree', 'max_depth'],
    ),
    ReorderRequest: exact({
      nodes: arrayOf(object({ id: ID, parent_id: nullable(ID) }, ['id']), {
        description: 'The whole scoped set in the new order; a flat reorder takes no parent.',
      }),
    }),
    ...errorSchemas(),
  };
}

/** The core's codes of one status, from the code table (errors/codes.ts). */
const codesOfStatus = (status: number): string[] =>
  Object.entries(ERROR_CODES)
    .filter(([, entry]) => STATUS_BY_KIND[entry.kind] === status)
    .map(([code]) => code);

/** Every status the code table can answer. */
const ERROR_STATUSES = [...new Set(Object.values(STATUS_BY_KIND))].sort((a, b) => a - b);

const errorBody = (codes: readonly string[]) =>
  exact({
    code: string({ enum: [...codes] }),
    message: string({ description: 'Localized; a 500 names only the request id.' }),
    details: mapOf(arrayOf(string()), { description: 'Field (or parameter, header, `body`) to its messages.' }),
  });

/**
 * The error envelope of each status (spec 7): `code` is one of the code table's codes of that
 * status; a 422 also one of the plugin field types' declared `errorCodes`. A 412 carries the
 * current record beside the error; its `data` and `meta` are per controller (controllers.ts).
 */
function errorSchemas(): Record<string, Schema> {
  return Object.fromEntries([
    ['ErrorCode', string({ enum: Object.keys(ERROR_CODES), description: 'Every code of the core\u2019s table (errors/codes.ts).' })],
    ['ErrorDetails', mapOf(arrayOf(string()))],
    ...ERROR_STATUSES.filter((status) => status !== 412).map((status) => [
      `Error${status}`,
      exact({ error: errorBody(codesOfStatus(status)) }),
    ]),
  ]);
}

/** The 422 envelope once the plugin codes are known. */
export const error422 = (pluginCodes: readonly string[]): Schema =>
  exact({ error: errorBody([...codesOfStatus(422), ...pluginCodes.filter((code) => !codesOfStatus(422).includes(code))]) });

/** The 412 envelope of one controller (or settings form, with `exists`): the error beside the current record. */
export const error412 = (record: Schema, meta: Schema, more: Record<string, Schema> = {}): Schema =>
  exact({ error: errorBody(codesOfStatus(412)), data: record, ...more, meta });

const REQUEST_ID: Header = { description: 'A fresh id per answer; a 500 names it.', schema: string() };

export const sharedHeaders = (): Record<string, Header> => ({
  RequestId: REQUEST_ID,
  ETag: { description: 'The version of the answer (a strong entity tag).', schema: string() },
  RetryAfter: { description: 'Seconds until another attempt is counted.', schema: integer({ minimum: 0 }) },
  SetCookie: { description: 'The `cms_admin` session cookie (HttpOnly, SameSite=Strict, scoped to the admin prefix).', schema: string() },
});

const DESCRIPTIONS: Record<number, string> = {
  401: 'Not authenticated (no, a bad or an expired token), or a bad login.',
  403: 'Refused: no permission, a cookie write without `X-Requested-With`, a personal API token on an interactive route, or code of the controller refused the write.',
  404: 'Not found: an unknown or out-of-scope record, child or file, or an undeclared name.',
  409: 'Conflict; on any write also `transient_conflict` (another change got in the way, nothing was written): try again.',
  422: 'Validation failed; `details` name each offending field, parameter or header.',
  429: 'Too many attempts, or too much image work waiting (uploads, thumbnails); `Retry-After` says when to try again.',
  500: 'An internal error; nothing is exposed but the request id.',
};

/** `#/components/responses/Error<status>` for every status but 412 (per controller). */
export function sharedResponses(): Record<string, Response> {
  return Object.fromEntries(
    ERROR_STATUSES.filter((status) => status !== 412).map((status) => [
      `Error${status}`,
      {
        description: DESCRIPTIONS[status] ?? 'An error.',
        headers: {
          'X-Request-Id': { $ref: '#/components/headers/RequestId' },
          ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
        },
        content: { 'application/json': { schema: ref(`Error${status}`) } },
      },
    ]),
  );
}
