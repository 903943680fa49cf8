import {
  createContext,
  useContext,
  useId,
  useState,
  type ComponentProps,
  type KeyboardEvent,
} from 'react';
import { cn } from '../../lib/cn';

/**
 * Tabs after the WAI-ARIA tabs pattern, with the attributes and behaviour Radix's gave them: a
 * `tablist` of `tab` buttons, the selected one the only one in the Tab order (arrow keys, Home and
 * End move the focus along the list, wrapping, and select the tab they reach), and the selected
 * tab's `tabpanel` alone rendered. Written here because the game's first screen shows tabs and
 * Radix's (tabs, roving focus, collection, presence: about 9 KB gzipped) weighed on its first visit.
 */
interface TabsState {
  value: string;
  select: (value: string) => void;
  id: (part: 'trigger' | 'content', value: string) => string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const tabs = useContext(TabsContext);
  if (!tabs) throw new Error('A tab is used outside <Tabs>');
  return tabs;
}

type TabsProps = Omit<ComponentProps<'div'>, 'defaultValue' | 'dir'> & {
  /** The tab selected at first, when the parent does not hold the selection itself. */
  defaultValue?: string;
  value?: string;
  onValueChange?: (value: string) => void;
};

export function Tabs({ defaultValue, value, onValueChange, children, ...props }: TabsProps) {
  const [own, setOwn] = useState(defaultValue ?? '');
  const base = useId();
  const selected = value ?? own;
  const state: TabsState = {
    value: selected,
    select: (next) => {
      if (next === selected) return;
      if (value === undefined) setOwn(next);
      onValueChange?.(next);
    },
    // The value goes into an id: spaces and the like are not welcome there.
    id: (part, of) => `${base}-${part}-${of.replace(/[^\w-]/g, '_')}`,
  };
  return (
    <div data-orientation="horizontal" {...props}>
      <TabsContext.Provider value={state}>{children}</TabsContext.Provider>
    </div>
  );
}

/** The key that moves the focus, and where to: the tab after, before, first or last. */
const MOVES: Record<string, (at: number, count: number) => number> = {
  ArrowRight: (at, count) => (at + 1) % count,
  ArrowLeft: (at, count) => (at - 1 + count) % count,
  Home: () => 0,
  End: (_at, count) => count - 1,
};

function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const move = MOVES[event.key];
  if (!move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  // Only the list's own tabs, not those of tabs nested in a panel.
  const list = event.currentTarget;
  const tabs = [...list.querySelectorAll<HTMLButtonElement>('[role="tab"]')].filter(
    (tab) => !tab.disabled && tab.closest('[role="tablist"]') === list,
  );
  const at = tabs.indexOf(event.target as HTMLButtonElement);
  if (at < 0 || tabs.length === 0) return;
  event.preventDefault();
  tabs[move(at, tabs.length)].focus();
}

/**
 * Each part draws the game's pill-shaped tabs unless `unstyled`: then only the caller's classes
 * apply (LOLGram's bottom tab bar).
 */
interface Styling {
  unstyled?: boolean;
}

export function TabsList({
  className,
  onKeyDown,
  unstyled,
  ...props
}: ComponentProps<'div'> & Styling) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-orientation="horizontal"
      className={
        unstyled
          ? className
          : cn(
              'inline-flex h-10 items-center rounded-xl bg-slate-800 p-1 text-slate-400',
              className,
            )
      }
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (!event.defaultPrevented) moveFocus(event);
      }}
      {...props}
    />
  );
}

type TriggerProps = Omit<ComponentProps<'button'>, 'value'> & { value: string } & Styling;

export function TabsTrigger({
  value,
  className,
  onClick,
  onFocus,
  unstyled,
  ...props
}: TriggerProps) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.id('trigger', value)}
      aria-selected={selected}
      aria-controls={tabs.id('content', value)}
      data-state={selected ? 'active' : 'inactive'}
      data-orientation="horizontal"
      tabIndex={selected ? 0 : -1}
      className={
        unstyled
          ? className
          : cn(
              'inline-flex flex-1 items-center justify-center rounded-lg px-3 py-1.5 text-sm font-semibold transition-all data-[state=active]:bg-slate-950 data-[state=active]:text-amber-300',
              className,
            )
      }
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      // A tab the arrow keys reach is selected (the pattern's automatic activation).
      onFocus={(event) => {
        onFocus?.(event);
        if (!event.defaultPrevented && !props.disabled) tabs.select(value);
      }}
      {...props}
    />
  );
}

type ContentProps = Omit<ComponentProps<'div'>, 'value'> & { value: string } & Styling;

export function TabsContent({ value, className, children, unstyled, ...props }: ContentProps) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.id('content', value)}
      aria-labelledby={tabs.id('trigger', value)}
      data-state="active"
      data-orientation="horizontal"
      tabIndex={0}
      className={unstyled ? className : cn('mt-3', className)}
      {...props}
    >
      {children}
    </div>
  );
}
