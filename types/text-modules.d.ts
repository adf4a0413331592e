// A text module (wrangler's `Text` rule, a workerd `text` module): its default export is the file's text.
declare module '*.txt' {
  const text: string;
  export default text;
}
