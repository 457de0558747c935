import type { AdminCore } from '../core.ts';
import type { Principal } from '../auth/principal.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** An uploaded file as the adapter hands it over: already on disk in a temporary place. */
export interface UploadedFile {
  field: string;
  /** The name the client sent; never used as a path. */
  originalName: string;
  /** The type the client claimed; never trusted. */
  claimedType: string;
  size: number;
  /** Temporary path the adapter wrote the upload to; removed after the request. */
  path: string;
}

/** A framework-free request: what every route handler sees. */
export interface AdminRequest {
  method: HttpMethod;
  /** Path relative to the route table's base, as matched. */
  path: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  body: unknown;
  files: UploadedFile[];
  ip: string;
  requestId: string;
  /** Set by the pipeline. */
  principal?: Principal;
  /** The token the principal presented (a sealed access token or a personal API token). */
  transport?: 'bearer' | 'cookie';
  locale: string;
}

export interface CookieInstruction {
  name: string;
  /** `null` expires the cookie. */
  value: string | null;
  maxAgeSeconds?: number;
}

export interface AdminResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: CookieInstruction[];
}

export type RouteHandler = (req: AdminRequest, core: AdminCore) => Promise<AdminResponse> | AdminResponse;

export interface RouteDefinition {
  method: HttpMethod;
  /** Full path below `{prefix}/api/v1`, with `:param` segments. */
  path: string;
  /** `public`: no principal needed; `required` (default): a valid principal or 401. */
  auth?: 'public' | 'required';
  /** Refuse personal API token principals (account routes are for interactive sessions). */
  interactive?: boolean;
  /** Require `X-Requested-With` whatever the transport (toolbar, widget, markdown preview). */
  requireXhr?: boolean;
  /** The principal needs all of these. */
  permissions?: string[];
  /** Query parameters the route accepts; any other is a 422 naming it. */
  query?: string[];
  /** What the body may be; `none` refuses any body key. Default `json` for POST/PUT. */
  body?: 'none' | 'json' | 'multipart';
  /** Multipart routes: the file field and its size limit (a larger file is a 422 on that field). */
  upload?: { field: string; maxBytes: number };
  handler: RouteHandler;
}
