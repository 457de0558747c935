/**
 * `@cms/admin-core/testing`: what a plugin's own tests need (docs/plugin-guide.md, "Testing a
 * plugin"), and nothing else. `startTestAdmin` answers the started admin; its members are the
 * sign-in helpers (`signIn`, `createAdmin`, `createRole`), `sql` and `logs`. The workspace's own
 * fixture plugins and the internals its tests look at are not published: they live in
 * `packages/admin-core/test/fixtures/` and are imported from the sources (docs/architecture.md, "Tests").
 */
export {
  startTestAdmin,
  type SignInOptions,
  type StartedTestAdmin,
  type TestAdminOptions,
  type TestClient,
  type TestRequestOptions,
  type TestResponse,
} from './testing/admin.ts';
