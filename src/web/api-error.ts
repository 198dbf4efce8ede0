/** An answer of `cody serve` other than 2xx: its status and its stable error code (openapi.json). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
