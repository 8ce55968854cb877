// Minimal streaming JSON tokenizer over byte chunks, for files too large to hold as one string.
//
// It emits a flat token stream (punctuation, strings, numbers, literals) and leaves structure to
// the handler. It is lenient: it rejects bytes that cannot start a token but does not check the
// grammar. Numbers are parsed arithmetically (exact for up to 15 significant digits and decimal
// exponents within +-22, otherwise within a few ulps), which is ample for data that gets quantised.
// (Handing number arrays to JSON.parse instead was measured to be slower.)

export interface JsonTokenHandler {
  /** One of the structural characters `{ } [ ] : ,` as a char code. */
  punct(code: number): void;
  string(value: string): void;
  number(value: number): void;
  literal(value: boolean | null): void;
}

const IDLE = 0;
const STRING = 1;
const ESCAPE = 2;
const NUMBER = 3;
const LITERAL = 4;

const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

function pow10(e: number): number {
  return e <= 22 ? POW10[e]! : 10 ** e;
}

/** mant × 10^e, correctly rounded while mant < 2^53 and |e| <= 22. */
function numberValue(neg: boolean, mant: number, e: number): number {
  const v = e >= 0 ? mant * pow10(e) : mant / pow10(-e);
  return neg ? -v : v;
}

export class JsonTokenizer {
  private state = IDLE;
  private strParts: Buffer[] = [];
  private strEscaped = false;
  private literalText = "";
  // Number accumulator.
  private neg = false;
  private mant = 0;
  private digits = 0;
  private scale = 0; // power of ten to apply to `mant`, excluding the explicit exponent
  private inFrac = false;
  private inExp = false;
  private expNeg = false;
  private exp = 0;

  private readonly handler: JsonTokenHandler;

  constructor(handler: JsonTokenHandler) {
    this.handler = handler;
  }

  feed(chunk: Buffer): void {
    const h = this.handler;
    let strStart = this.state === STRING || this.state === ESCAPE ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      switch (this.state) {
        case NUMBER:
          if (c >= 0x30 && c <= 0x39) {
            const d = c - 0x30;
            if (this.inExp) this.exp = this.exp * 10 + d;
            else if (this.digits < 15) {
              this.mant = this.mant * 10 + d;
              if (this.mant !== 0) this.digits++;
              if (this.inFrac) this.scale--;
            } else if (!this.inFrac) this.scale++;
            continue;
          }
          if (c === 0x2e) {
            this.inFrac = true;
            continue;
          } // .
          if (c === 0x65 || c === 0x45) {
            this.inExp = true;
            continue;
          } // e E
          if (this.inExp && (c === 0x2d || c === 0x2b)) {
            this.expNeg = c === 0x2d;
            continue;
          }
          h.number(numberValue(this.neg, this.mant, this.scale + (this.expNeg ? -this.exp : this.exp)));
          this.state = IDLE;
          break; // reprocess `c` below as IDLE
        case STRING:
          if (c === 0x22) {
            h.string(this.finishString(chunk, strStart, i));
            this.state = IDLE;
          } else if (c === 0x5c) {
            this.strEscaped = true;
            this.state = ESCAPE;
          }
          continue;
        case ESCAPE:
          this.state = STRING;
          continue;
        case LITERAL:
          if (c >= 0x61 && c <= 0x7a) {
            this.literalText += String.fromCharCode(c);
            continue;
          }
          h.literal(this.finishLiteral());
          this.state = IDLE;
          break;
      }
      // IDLE
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (c === 0x22) {
        this.state = STRING;
        this.strEscaped = false;
        strStart = i + 1;
      } else if (c === 0x2c || c === 0x3a || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) {
        h.punct(c);
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        this.state = NUMBER;
        this.neg = c === 0x2d;
        this.mant = c === 0x2d ? 0 : c - 0x30;
        this.digits = this.mant === 0 ? 0 : 1;
        this.scale = 0;
        this.inFrac = this.inExp = this.expNeg = false;
        this.exp = 0;
      } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
        this.state = LITERAL;
        this.literalText = String.fromCharCode(c);
      } else {
        throw new Error(`JSON: unexpected byte 0x${c.toString(16)} ('${String.fromCharCode(c)}')`);
      }
    }
    if (this.state === STRING || this.state === ESCAPE) {
      this.strParts.push(Buffer.from(chunk.subarray(strStart))); // copy: caller may reuse `chunk`
    }
  }

  /** Flushes a trailing number/literal; throws if the input ended inside a string. */
  end(): void {
    if (this.state === NUMBER) {
      this.handler.number(numberValue(this.neg, this.mant, this.scale + (this.expNeg ? -this.exp : this.exp)));
    } else if (this.state === LITERAL) this.handler.literal(this.finishLiteral());
    else if (this.state !== IDLE) throw new Error("JSON: unexpected end of input inside a string");
    this.state = IDLE;
  }

  private finishString(chunk: Buffer, start: number, end: number): string {
    let bytes = chunk.subarray(start, end);
    if (this.strParts.length > 0) {
      bytes = Buffer.concat([...this.strParts, bytes]);
      this.strParts = [];
    }
    const raw = bytes.toString("utf8");
    return this.strEscaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  private finishLiteral(): boolean | null {
    const t = this.literalText;
    if (t === "true") return true;
    if (t === "false") return false;
    if (t === "null") return null;
    throw new Error(`JSON: invalid literal '${t}'`);
  }
}
