/** What the host application provides to the engine: its popups and list-text helpers. */
export * from './popups';
export { truncateText, LIST_TEXT_LIMIT } from './truncateText';
export { Ellipsis } from './Ellipsis';
