export declare function kindOf(command: string, parentKind?: string): string;
export declare function sampleCpuByKind(): { stop: () => [kind: string, cpuSeconds: number][] | undefined };
