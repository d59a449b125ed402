import { RoutinePage } from '#web/features/routines/routine-page.tsx';

export const MorningRoutinePage = () => <RoutinePage kind="morning" />;
export const EveningRoutinePage = () => <RoutinePage kind="evening" />;
