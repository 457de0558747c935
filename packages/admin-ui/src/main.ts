import './styles.css';
import './app.ts';
import type { CmsApp } from './app.ts';
import { readBoot } from './boot.ts';

/** The entry the shell loads (docs/admin-ui.md, "Package and serving"). */
const app = document.createElement('cms-app') as CmsApp;
app.boot = readBoot();
document.getElementById('app')?.replaceChildren(app);
