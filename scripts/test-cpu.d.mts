export declare function kindOf(command: string, parentKind?: string): string;
export declare function sampleCpuByKind(): { stop: () => [kind: string, cpuSeconds: number][] | undefined };
export declare function isBelow(pid: number, stats: Map<number, { parent: number }>, root?: number): boolean;
export declare function sampleCpuElsewhere(everyMs?: number): { stop: () => number };
