/** Meditations tab: the upload form (checked here, checked again on the server) and the catalogue list. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { catalogueApi } from '#shared/contracts/catalogue.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { Button } from '#web/components/ui/button.tsx';
import { AdminMeditationCard } from '#web/features/admin/admin-meditation-card.tsx';
import { Panel } from '#web/features/admin/admin-ui.tsx';
import { UploadForm } from '#web/features/admin/upload-form.tsx';
import { call } from '#web/lib/call.ts';
import { ListStates } from '#web/components/ui/list-states.tsx';

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
        <ListStates query={list} loading="Loading meditations..." failed="The catalogue could not be loaded" empty="No meditations yet. Upload the first one above.">
          {(items) => (
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Meditations">
            {items.map((m) => (
              <AdminMeditationCard key={m.id} meditation={m} all={items} onChanged={refresh} />
            ))}
          </ul>
          )}
        </ListStates>
      </Panel>
    </div>
  );
}
