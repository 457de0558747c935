import type { PluginDeclaration } from './declaration.ts';
import type { Registry } from './registry.ts';

/**
 * What a feature (field types, client files, settings, …) adds to the registry: it owns some
 * plugin keys, checks and collects each plugin's contribution, and answers its result once every
 * plugin is registered. The registry knows no feature; the composition root (`core.ts`) passes
 * the capabilities in, and the registry exposes each result under the capability's name.
 */
export interface PluginCapability<Result> {
  /** The plugin keys it reads; they join the registry's known keys (any other key is refused). */
  readonly keys: readonly string[];
  /**
   * Checks one plugin's contribution and keeps it; throws a `ConfigError` naming the plugin and
   * key. Runs once per plugin, in registration order, after the registry's own checks of that
   * plugin, and in the order the capabilities are given.
   */
  add(plugin: PluginDeclaration, code: string): void;
  /**
   * Runs once after every plugin and the navigation are registered (checks across plugins, such
   * as permission codes or controller addresses); answers the result, which must not change
   * afterwards (freeze it, or answer a `readonlyMap`).
   */
  finish(registry: Registry): Result;
}

export type PluginCapabilities = Readonly<Record<string, PluginCapability<unknown>>>;

/** What the registry exposes for the capabilities `C`: each capability's result under its name. */
export type CapabilityResults<C extends PluginCapabilities> = {
  readonly [K in keyof C]: C[K] extends PluginCapability<infer Result> ? Result : never;
};
