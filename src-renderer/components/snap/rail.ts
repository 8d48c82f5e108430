/** The rail camera's path and timing: shared with the exporter's Zero-One ride (src-shared/formats/snap/rail.ts). */
export * from '@shared/formats/snap/rail'
