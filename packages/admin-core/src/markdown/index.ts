export { markdownStrings } from './strings.ts';
