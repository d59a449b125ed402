/** Meditations tab: the upload form (checked here, checked again on the server) and the catalogue list. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { catalogueApi } from '#shared/contracts/catalogue.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { AdminMeditationCard } from '#web/features/admin/admin-meditation-card.tsx';
import { Panel } from '#web/features/admin/admin-ui.tsx';
import { UploadForm } from '#web/features/admin/upload-form.tsx';
import { call } from '#web/lib/call.ts';

const KEY = queryKeyOf(adminApi.meditations);

export function MeditationsTab() {
  const list = useQuery({ queryKey: KEY, queryFn: ({ signal }) => call(adminApi.meditations, {}, { signal }).then((r) => r.meditations) });
  const client = useQueryClient();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: KEY });
    // The public catalogue changes too: every category's listing.
    await client.invalidateQueries({ queryKey: queryKeyOf(catalogueApi.list) });
  };
  return (
    <div className="grid gap-6">
      <UploadForm onUploaded={refresh} />
      <Panel
        title="Catalogue"
        actions={
          <Button size="sm" variant="outline" onClick={() => void refresh()}>
            <RefreshCw className="size-4" aria-hidden /> Refresh
          </Button>
        }
      >
        {list.isPending ? (
          <Spinner label="Loading meditations..." />
        ) : list.isError ? (
          <p role="alert">The catalogue could not be loaded: {list.error.message}</p>
        ) : list.data.length === 0 ? (
          <p className="text-stone-600 dark:text-stone-300">No meditations yet. Upload the first one above.</p>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Meditations">
            {list.data.map((m) => (
              <AdminMeditationCard key={m.id} meditation={m} all={list.data} onChanged={refresh} />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
