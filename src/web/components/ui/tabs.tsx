/** Tabs on Radix (keyboard arrows, roving focus, tab/tabpanel roles) with the app's pill look. */
import { Tabs as RadixTabs } from 'radix-ui';
import type { ComponentProps } from 'react';

export const Tabs = RadixTabs.Root;
export const TabsContent = RadixTabs.Content;

/** `wrap`: many tabs (the admin dashboard) wrap onto more lines, in a softer rounded box. */
function TabsList({ wrap = false, className = '', ...props }: ComponentProps<typeof RadixTabs.List> & { wrap?: boolean }) {
  return <RadixTabs.List className={`flex gap-1 bg-stone-100 p-1 dark:bg-stone-800 ${wrap ? 'flex-wrap rounded-3xl' : 'rounded-full'} ${className}`} {...props} />;
}

function TabsTrigger({ className = '', ...props }: ComponentProps<typeof RadixTabs.Trigger>) {
  return (
    <RadixTabs.Trigger
      className={`h-10 flex-1 rounded-full text-sm font-medium text-stone-600 data-[state=active]:bg-white data-[state=active]:text-stone-900 data-[state=active]:shadow-sm dark:text-stone-300 dark:data-[state=active]:bg-stone-950 dark:data-[state=active]:text-stone-50 ${className}`}
      {...props}
    />
  );
}

export type TabItem = { value: string; label: string };

/** The tab strip: one trigger per item, named for screen readers by `label`. */
export function TabsBar({ label, tabs, wrap = false, triggerClassName }: { label: string; tabs: readonly TabItem[]; wrap?: boolean; triggerClassName?: string }) {
  return (
    <TabsList aria-label={label} wrap={wrap}>
      {tabs.map((tab) => (
        <TabsTrigger key={tab.value} value={tab.value} className={triggerClassName}>
          {tab.label}
        </TabsTrigger>
      ))}
    </TabsList>
  );
}
