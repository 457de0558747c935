import { html, nothing } from 'lit';
import type { FieldModule, FieldView } from '../field-types.ts';

/**
 * `permissioneditor` (docs/admin-ui.md, "Field types"): a table per permission group. In `radio`
 * mode each permission is inherited (absent), allowed (1) or denied (-1); in `checkbox` mode it is
 * granted (1) or absent. Locked codes (ones the admin may not change) are shown and disabled; the
 * server refuses a change to them with a 403 anyway.
 */

type Grants = Record<string, number>;

function grantsOf(value: unknown): Grants {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Grants) : {};
}

function change(view: FieldView, code: string, to: number | undefined): void {
  const next = { ...grantsOf(view.value) };
  if (to === undefined) delete next[code];
  else next[code] = to;
  view.set(next);
}

const permissions: FieldModule = {
  frame: 'group',
  render(view) {
    const app = view.host.app;
    const grants = grantsOf(view.value);
    const radio = view.field.mode === 'radio';
    const groups = view.field.permissionTabs ?? [];
    const choices: [number | undefined, string][] = [
      [undefined, app.t('permission_inherit')],
      [1, app.t('permission_allow')],
      [-1, app.t('permission_deny')],
    ];
    return html`<div class="cms-permissions" id=${view.id} aria-describedby=${view.describedBy ?? nothing}>
      ${groups.map(
        (group, g) => html`<table class="cms-table cms-permission-table">
          <caption>${group.label}</caption>
          <thead>
            <tr>
              <th scope="col">${app.t('permission')}</th>
              ${
                radio
                  ? choices.map(([, label]) => html`<th scope="col">${label}</th>`)
                  : html`<th scope="col">${app.t('permission_granted')}</th>`
              }
            </tr>
          </thead>
          <tbody>
            ${group.permissions.map((permission, p) => {
              const id = `${view.id}-${g}-${p}`;
              const disabled = view.readOnly || Boolean(permission.locked);
              const name = html`<th scope="row" id="${id}-name">
                ${permission.label}
                ${permission.locked ? html`<span class="cms-muted"> (${app.t('permission_locked')})</span>` : nothing}
              </th>`;
              if (!radio) {
                return html`<tr>
                  ${name}
                  <td>
                    <input
                      type="checkbox"
                      aria-labelledby="${id}-name"
                      .checked=${grants[permission.code] === 1}
                      ?disabled=${disabled}
                      @change=${(event: Event) => change(view, permission.code, (event.target as HTMLInputElement).checked ? 1 : undefined)}
                    />
                  </td>
                </tr>`;
              }
              return html`<tr>
                ${name}
                ${choices.map(
                  ([value, label]) => html`<td>
                    <input
                      type="radio"
                      name=${id}
                      aria-label="${permission.label}: ${label}"
                      .checked=${grants[permission.code] === value}
                      ?disabled=${disabled}
                      @change=${() => change(view, permission.code, value)}
                    />
                  </td>`,
                )}
              </tr>`;
            })}
          </tbody>
        </table>`,
      )}
    </div>`;
  },
  empty: () => ({}),
};

export default permissions;
