/** The part of the `linebreak` package (UAX #14) that Cody uses; the package ships no types. */
declare module 'linebreak' {
  interface Break {
    /** The offset (UTF-16) where the next line may start. */
    position: number;
    /** A mandatory break (a line end in the text). */
    required: boolean;
  }
  class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
  export default LineBreaker;
}
