import { journalPlugin } from '@cms/journal';
import { catalogPlugin } from './catalog.ts';

/** The plugins the example app mounts, in order. */
export const plugins = [journalPlugin, catalogPlugin];
