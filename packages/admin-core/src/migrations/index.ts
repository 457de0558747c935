import type { MigrationObject } from '@mikro-orm/core';
import { CoreInit } from './core-0001-init.ts';
import { CoreSettings } from './core-0002-settings.ts';
import { CoreAudit } from './core-0003-audit.ts';
import { CoreBindings } from './core-0004-bindings.ts';
import { CoreAttachments } from './core-0005-attachments.ts';
import { CoreAuthNotify } from './core-0006-auth-notify.ts';

/** The core's migrations, in order. Names are stable: they are recorded in `cms_migrations`. */
export const coreMigrations: MigrationObject[] = [
  { name: 'cms.backend/0001-init', class: CoreInit },
  { name: 'cms.backend/0002-settings', class: CoreSettings },
  { name: 'cms.backend/0003-audit', class: CoreAudit },
  { name: 'cms.backend/0004-bindings', class: CoreBindings },
  { name: 'cms.backend/0005-attachments', class: CoreAttachments },
  { name: 'cms.backend/0006-auth-notify', class: CoreAuthNotify },
];
