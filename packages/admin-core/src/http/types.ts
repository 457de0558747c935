import type { Principal } from '../auth/principal.ts';
import type { OperationContext, RequestContext } from '../context/operation.ts';
import type { RouteSchemaSource } from '../schema/route.ts';

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
  /** The host trusts a reverse proxy's `X-Forwarded-*` headers (the adapter's `trustProxy`); absent: false. */
  trustProxy?: boolean;
  requestId: string;
  locale: string;
}

/** The request of a route that requires authentication: the pipeline has resolved its principal. */
export interface AuthedRequest extends AdminRequest {
  readonly principal: Principal;
  /** How the principal's credential came (a sealed access token or a personal API token). */
  readonly transport: 'bearer' | 'cookie';
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

type Answer = Promise<AdminResponse> | AdminResponse;

/** A handler of an authenticated route: its request and context always carry the principal. */
export type RouteHandler = (req: AuthedRequest, ctx: OperationContext) => Answer;
/** A handler of a public route: no principal. */
export type PublicRouteHandler = (req: AdminRequest, ctx: RequestContext) => Answer;

interface RouteBase {
  method: HttpMethod;
  /** Full path below `{prefix}/api/v1` (plugin routes: the full path from the root), with `:param` segments. */
  path: string;
  /** Require `X-Requested-With` whatever the transport (toolbar, widget, markdown preview). */
  requireXhr?: boolean;
  /** Query parameters the route accepts; any other is a 422 naming it. */
  query?: string[];
  /** What the body may be; `none` refuses any body key. Default `json` for POST/PUT/DELETE, `none` for GET. */
  body?: 'none' | 'json' | 'multipart';
  /** Multipart routes: the file field and its size limit (a larger file is a 422 on that field). */
  upload?: { field: string; maxBytes: number };
  /** Cookies every answer of the route sets, refusals included (logout expires the session cookie). */
  cookies?: readonly CookieInstruction[];
  /**
   * The route's description: validated before the handler (`http/validate.ts`) and the route's
   * operation in the OpenAPI document (docs/architecture.md, "Where things go").
   */
  schema?: RouteSchemaSource;
}

/** A route anyone may call. */
interface PublicRoute extends RouteBase {
  auth: 'public';
  handler: PublicRouteHandler;
}

/** A route that needs a valid principal (401 without one) holding every one of `permissions`. */
export interface AuthenticatedRoute extends RouteBase {
  auth?: 'required';
  /** Refuse personal API token principals (account routes are for interactive sessions). */
  interactive?: boolean;
  /** The principal needs all of these. */
  permissions?: readonly string[];
  /**
   * The route's own access rule beyond `permissions` (an action's permissions, by the path's
   * name): run after the guard and before the body is read or checked, so a caller who may not
   * use the route learns nothing about its inputs (404 or 403 first).
   */
  authorize?: (req: AuthedRequest) => void;
  handler: RouteHandler;
}

export type RouteDefinition = PublicRoute | AuthenticatedRoute;

/** Adds a controller's permissions to each of its routes: the one place they are checked (controllers/routes.ts). */
export type ControllerRoute = (r: Omit<AuthenticatedRoute, 'permissions'>) => AuthenticatedRoute;

/** The body kind a route reads when it does not say: none for GET, JSON otherwise. */
export const bodyKindOf = (route: Pick<RouteBase, 'body'>, method: HttpMethod): 'none' | 'json' | 'multipart' =>
  route.body ?? (method === 'GET' ? 'none' : 'json');
