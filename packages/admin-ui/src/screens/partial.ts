import type { CmsApp } from '../app.ts';
import { contentImages } from '../html-tree.ts';
import { partialNodes } from '../partial.ts';
import type { PartialView } from '../types.ts';

/**
 * A controller's partial (`GET /{ctl}/partials/{name}`), rendered from its node tree
 * (docs/admin-ui.md, "Security"), its images under the Markdown preview's rule (`contentImages`). A plain element: its children are the built nodes, not a
 * template. A partial that cannot be loaded says so in one line instead of breaking the screen.
 */
export class CmsPartial extends HTMLElement {
  app!: CmsApp;
  ctl!: string;
  name!: string;
  /** The record of a form partial (`?id=`); none for a list's header or a new record. */
  recordId: number | undefined;

  connectedCallback(): void {
    this.classList.add('cms-partial');
    void this.load();
  }

  async load(): Promise<void> {
    try {
      const answer = await this.app.api.call<PartialView>('GET', `/${this.ctl}/partials/${encodeURIComponent(this.name)}`, {
        query: { id: this.recordId },
      });
      this.replaceChildren(partialNodes(answer.data.nodes, contentImages(this.app.api.boot.prefix, location.hostname)));
    } catch (error) {
      const text = document.createElement('p');
      text.className = 'cms-muted';
      text.textContent = this.app.failureMessage(error);
      this.replaceChildren(text);
    }
  }
}

if (!customElements.get('cms-partial')) customElements.define('cms-partial', CmsPartial);
