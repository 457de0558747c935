import { controllerTitle, humanize } from '../controllers/defaults.ts';
import type { PluginDefinition } from './define.ts';

/**
 * A plugin that declares no `navigation` gets one group with its controllers (docs/plugin-guide.md,
 * "Keys"): the group opens the first, the side menu lists each by its list title. Labels are the
 * plugin's string keys `navigation.{name}` and `titles.{controller}`, whose fallback-locale text
 * defaults to the humanized names (recorded in `strings`, key to text).
 */
export function withDefaultNavigation(plugin: PluginDefinition, strings: Map<string, string>): PluginDefinition {
  if (plugin.navigation !== undefined) return plugin;
  const controllers = (plugin.controllers ?? []).filter((controller) => controller?.entity && (controller.list || controller.form));
  if (controllers.length === 0) return plugin;
  const ctx = { plugin: `${plugin.vendor}.${plugin.name}`, strings };
  const address = (name: string) => `${plugin.vendor}/${plugin.name}/${name}`;
  const groupKey = `navigation.${plugin.name}`;
  if (!strings.has(groupKey)) strings.set(groupKey, humanize(plugin.name));
  return {
    ...plugin,
    navigation: [
      {
        code: `${plugin.vendor}-${plugin.name}`,
        label: `${ctx.plugin}::${groupKey}`,
        controller: address(controllers[0]!.name),
        sideMenu: controllers.map((controller) => ({
          code: controller.name,
          label: controller.list?.title ?? controllerTitle(ctx, controller.name),
          controller: address(controller.name),
        })),
      },
    ],
  };
}
