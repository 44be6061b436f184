/** webpack emits imported CSS as an asset (type 'asset/resource'): the import is its URL. */
declare module '*.css' {
  const url: string;
  export default url;
}
