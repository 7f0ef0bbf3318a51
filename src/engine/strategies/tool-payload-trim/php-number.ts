/**
 * PHP's float formatting (`zend_gcvt`), which both `json_encode` and `(string) $float` go through:
 *
 * - `json_encode` uses `serialize_precision = -1` → shortest round-trip digits ("mode 0",
 *   17 as the exponent cut-off), exponent char `e`, and no `.0` (that needs
 *   `JSON_PRESERVE_ZERO_FRACTION`): `1.0` → `1`, `0.1` → `0.1`, `1e25` → `1.0e+25`.
 * - `(string) $float` (PHP 8) uses `precision = 14` ("mode 2": 14 significant digits), exponent
 *   char `E`: `1e15` → `1.0E+15`, `0.1 + 0.2` → `0.3`.
 *
 * Scientific notation is used when the decimal exponent is below −4 or above the digit count,
 * with at least one fractional digit (`1.0e+25`) and no zero padding of the exponent.
 */

/** `json_encode` of a float with PHP's default `serialize_precision = -1`. */
export function phpJsonFloat(value: number): string {
  return gcvt(value, -1, 'e')
}

/** `(string) $float` with PHP's default `precision = 14`. */
export function phpFloatToString(value: number): string {
  return gcvt(value, 14, 'E')
}

function gcvt(value: number, precision: number, exponentChar: 'e' | 'E'): string {
  if (Number.isNaN(value)) return 'NAN'
  if (!Number.isFinite(value)) return value < 0 ? '-INF' : 'INF'
  const mode0 = precision < 0
  const ndigit = mode0 ? 17 : precision
  const negative = value < 0 || Object.is(value, -0)
  const abs = Math.abs(value)
  let digits = '0'
  let decpt = 1
  if (abs !== 0) {
    // toExponential() is the shortest round-trip form; toExponential(n) rounds to n+1 digits.
    const [mantissa, exponent] = (
      mode0 ? abs.toExponential() : abs.toExponential(ndigit - 1)
    ).split('e')
    digits = (mantissa ?? '0').replace('.', '').replace(/0+$/, '') || '0'
    decpt = Number(exponent) + 1
  }
  const sign = negative ? '-' : ''
  if ((decpt >= 0 && decpt > ndigit) || decpt < -3) {
    const exp = decpt - 1
    const fraction = digits.length > 1 ? digits.slice(1) : '0'
    return `${sign}${digits[0]}.${fraction}${exponentChar}${exp < 0 ? '-' : '+'}${Math.abs(exp)}`
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`
  if (digits.length <= decpt) return sign + digits + '0'.repeat(decpt - digits.length)
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`
}
