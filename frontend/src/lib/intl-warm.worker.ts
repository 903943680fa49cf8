// Loads the browser's Unicode data (ICU) on a thread of its own: the renderer loads it once for
// the whole process, at the first use of Intl or toLocaleString, 50-100 ms on this machine's CPU
// and four times that on a phone, in one task. Made here first, the page's own first use (a
// number on a board, a date, a country's name) finds it loaded and costs well under a millisecond.
(1234.5).toLocaleString();
new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' }).format(0);
new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of('US');
new Intl.Collator('en').compare('a', 'b');
close();
