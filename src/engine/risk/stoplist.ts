/**
 * Strings that look distinctive by shape (a dot, an underscore, a hump, three digits) but that an
 * agent writes from general knowledge, not from something it read in this transcript. Seeing one
 * of them later proves nothing, so they are never evidence. Kept small on purpose: precision comes
 * from the shape rules in `strings.ts`; this list only removes the frequent false alarms.
 */

const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean))

/** Exact tokens (case-sensitive) that are never evidence. */
export const STOP_TOKENS: ReadonlySet<string> = words(`
  e.g i.e a.m p.m U.S Ph.D Node.js node.js Next.js Vue.js React.js Express.js D3.js
  node_modules __init__ __main__ __name__ __file__ __dirname __filename __pycache__ __tests__
  snake_case camelCase PascalCase kebab-case SCREAMING_SNAKE_CASE
  package.json package-lock.json tsconfig.json README.md readme.md CHANGELOG.md LICENSE.md
  index.ts index.js index.tsx index.html main.py main.ts main.js setup.py requirements.txt
  pyproject.toml Cargo.toml go.mod Makefile Dockerfile .gitignore .env .env.local yarn.lock
  vite.config.ts jest.config.js
  console.log console.error console.warn JSON.parse JSON.stringify Object.keys Object.values
  Object.entries Object.assign Array.isArray Array.from Promise.all Math.max Math.min Math.floor
  Math.round Math.random process.env process.exit os.path os.path.join os.path.exists os.environ
  sys.argv sys.exit sys.path json.loads json.dumps self.assertEqual np.array pd.DataFrame
  github.com gitlab.com example.com localhost stackoverflow.com npmjs.com pypi.org
  /dev/null /dev/stdout /dev/stderr /bin/sh /bin/bash /usr/bin/env /tmp /usr/bin/python3
  useState useEffect useRef useMemo useCallback useContext useReducer onClick onChange onSubmit
  forEach toString toLowerCase toUpperCase startsWith endsWith indexOf lastIndexOf isArray
  parseInt parseFloat hasOwnProperty preventDefault stopPropagation getElementById querySelector
  querySelectorAll addEventListener removeEventListener setTimeout setInterval clearTimeout
  innerHTML textContent className readFile writeFile readFileSync writeFileSync existsSync
  localStorage sessionStorage appendChild createElement getAttribute setAttribute async_to_sync
  iPhone iPad macOS iOS eBay
  JavaScript TypeScript GitHub GitLab OpenAI ChatGPT PowerShell PostgreSQL MySQL MongoDB NodeJS
  WebSocket DevTools YouTube LinkedIn WordPress VSCode FastAPI GraphQL OAuth LaTeX McDonald
  TypeError ValueError KeyError IndexError SyntaxError RuntimeError AssertionError ImportError
  AttributeError ReferenceError RangeError NameError NotImplementedError FileNotFoundError
  ModuleNotFoundError PermissionError TimeoutError ZeroDivisionError StopIteration OSError IOError
  NullPointerException IllegalArgumentException UnhandledPromiseRejection
  --help --version --verbose --force --dry-run --save-dev --no-verify --yes
  sha256 sha512 base64 utf-8 utf-16 x86_64 int32 int64 uint8 uint16 uint32 uint64 float32 float64
  0.0.0.0 127.0.0.1 1.0.0 0.1.0 0.0.1
  NODE_ENV API_KEY OPENAI_API_KEY ANTHROPIC_API_KEY
`)

/**
 * Dotted names rooted in a standard global or module (`console.…`, `Math.…`, `os.path.…`): the
 * agent knows these from training, whatever the transcript showed.
 */
export const COMMON_ROOTS: ReadonlySet<string> = words(`
  console JSON Math Object Array Promise String Number Date Error Reflect Symbol Intl window
  document navigator process os sys json re np pd fs path util http https crypto assert expect
  vi jest it describe test React ReactDOM torch tf plt math time datetime logging subprocess
  self this cls super
`)

/** Words that carry no identity (for phrases: a phrase needs content words besides these). */
export const STOP_WORDS: ReadonlySet<string> = words(`
  a an the and or but if then else of to in on at by for with from into onto as is are was were be
  been being am do does did done has have had having not no nor so too very can could should would
  will shall may might must it its this that these those there here what which who whom whose
  when where why how all any both each few more most other some such only own same than just also
  now new old one two three get got use used using make made see run ran file files line lines
  error errors test tests value values name names type types data code function method class
  return returns true false null none undefined let var const def self this we you i me my our
  your they them their he she his her please thanks ok okay yes still now after before again
  don doesn didn isn aren wasn weren won wouldn couldn shouldn hasn haven let
`)

const POWERS_OF_TWO: ReadonlySet<string> = new Set(
  Array.from({ length: 10 }, (_, i) => String(2 ** (i + 7))),
)

/**
 * Numbers everyone writes: round ones (`100`, `2000`: one significant digit), values people pick
 * (multiples of 50: a `250ms` debounce, a `750` limit), years, powers of two from 128 to 65536.
 */
export function isCommonNumber(digits: string): boolean {
  const trimmed = digits.replace(/^0+/, '')
  if (trimmed.replace(/0+$/, '').length <= 1) return true
  if (/^\d{1,5}$/.test(trimmed) && Number(trimmed) % 50 === 0) return true
  if (/^(19|20)\d\d$/.test(trimmed)) return true
  return POWERS_OF_TWO.has(trimmed)
}
