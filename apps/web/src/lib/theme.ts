import { type CSSVariablesResolver, createTheme, DEFAULT_THEME } from '@mantine/core';

/** One theme for every screen; breakpoints are the spec's (§9). */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '87.5em' },
  headings: { fontWeight: '650' },
  // Filled controls in light colours (yellow, lime) take dark text instead of white.
  autoContrast: true,
  components: {
    Button: { defaultProps: { radius: 'md' } },
    // An open menu puts the focus on its first item (the ARIA menu pattern), not on a focusable
    // presentational placeholder that a menu may not contain.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A badge beside text in a row keeps its width: the text wraps, the badge is never cut.
    Badge: { styles: { root: { flexShrink: 0 } } },
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    // A table wider than the screen scrolls sideways, natively: Mantine's ScrollArea measured itself
    // in a timer after each render (a forced layout, ~45 ms of a cold /users load). Keyboard users
    // reach that scroll too (WCAG 2.1.1).
    TableScrollContainer: { defaultProps: { type: 'native', tabIndex: 0 } },
  },
});

// --- Contrast (WCAG 2.1 AA, 4.5:1 for text) ---------------------------------------------------

type Rgb = [number, number, number];

const parseHex = (hex: string): Rgb => {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
};
const toHex = (rgb: Rgb): string => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
const channel = (v: number): number => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const relativeLuminance = ([r, g, b]: Rgb): number => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);

/** WCAG contrast ratio of two hex colours. */
function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(parseHex(a)), relativeLuminance(parseHex(b))].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour, darkened in small steps until it reads at `ratio` on `background`. */
function darkenUntil(color: string, background: string, ratio = 4.6): string {
  let rgb = parseHex(color);
  for (let i = 0; i < 40 && contrastRatio(toHex(rgb), background) < ratio; i++) rgb = rgb.map((v) => v * 0.95) as Rgb;
  return toHex(rgb);
}

const WHITE = '#ffffff';
/** The lightest background text sits on (page, table header, footer). */
const LIGHT_SURFACE = DEFAULT_THEME.colors.gray[1];

/**
 * Mantine's light scheme puts white on shade 6 (indigo: 4.32:1), shade 9 on shade 1 for light
 * badges (yellow: 2.68:1, teal: 4.32:1) and gray 6 for dimmed text (3.32:1 on white): each falls
 * below WCAG AA. Here every colour's filled, outline, text and light-badge colour is the nearest
 * one that reaches 4.5:1, and dimmed text is gray 7 — computed from the palette, so every screen
 * (and every screen still to come) inherits it.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {};
  for (const [name, shades] of Object.entries(DEFAULT_THEME.colors)) {
    if (name === 'dark') continue;
    const filled = darkenUntil(shades[6], WHITE);
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darkenUntil(filled, WHITE, 5.5);
    light[`--mantine-color-${name}-outline`] = filled;
    // Text and links in a colour also sit on that colour's light background (alerts, light badges).
    light[`--mantine-color-${name}-text`] = darkenUntil(darkenUntil(shades[6], LIGHT_SURFACE), shades[1]);
    light[`--mantine-color-${name}-light-color`] = darkenUntil(shades[9], shades[2]);
  }
  light['--mantine-color-dimmed'] = darkenUntil(DEFAULT_THEME.colors.gray[7], LIGHT_SURFACE);
  // Links also appear inside blue (info) alerts; errors under fields are red text on white.
  light['--mantine-color-anchor'] = darkenUntil(light['--mantine-color-indigo-text'] as string, DEFAULT_THEME.colors.blue[1]);
  light['--mantine-color-error'] = light['--mantine-color-red-text'] as string;
  light['--mantine-primary-color-filled'] = light['--mantine-color-indigo-filled'] as string;
  light['--mantine-primary-color-filled-hover'] = light['--mantine-color-indigo-filled-hover'] as string;
  return { variables: {}, light, dark: {} };
};
