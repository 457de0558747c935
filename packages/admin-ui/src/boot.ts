/** The boot JSON the core writes into the shell (docs/admin-ui.md, "Package and serving"). */
export interface Boot {
  prefix: string;
  apiBase: string;
  locale: string;
  locales: string[];
  fallbackLocale: string;
  themes: string[];
  version: string | null;
}

export function readBoot(): Boot {
  const text = document.getElementById('cms-admin-boot')?.textContent;
  const boot = JSON.parse(text ?? '{}') as Partial<Boot>;
  return {
    prefix: boot.prefix ?? '/backend',
    apiBase: boot.apiBase ?? '/backend/api/v1',
    locale: boot.locale ?? 'en',
    locales: boot.locales ?? ['en'],
    fallbackLocale: boot.fallbackLocale ?? boot.locales?.[0] ?? 'en',
    themes: boot.themes ?? ['light', 'dark', 'auto'],
    version: boot.version ?? null,
  };
}
