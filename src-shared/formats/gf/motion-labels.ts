/**
 * Slot names of motions, a UI hint only (spec §11.9, from Pokemon3DStoUnity `AnimationNaming.cs`,
 * not verified): the "Fight" list for 4.bin and the start of the "Movement" list for 6.bin.
 */
const FIGHT = [
  'Idle', 'Appear', 'Transform', 'Release', 'Dropping', 'Landing', 'Release_without_Landing', 'Mega_Upgraded',
  'Attack', 'Attack_2', 'Attack_3', 'Attack_4', 'No_Touch_Attack', 'No_Touch_Attack_2', 'No_Touch_Attack_3', 'No_Touch_Attack_4',
  'Be_Attacked', 'Lost', 'Empty', 'Eye_Emotion', 'Eye_2_Emotion', 'Eye_3_Emotion', 'Mouth_Emotion', 'Mouth_2_Emotion',
  'Mouth_3_Emotion', 'State', 'State_2', 'State_3', 'State_4',
]
const MOVEMENT = ['Idle', 'Empty', 'Walk', 'Run']

/** What each motion file holds (spec §1), for grouping in the UI. */
export const GF_MOTION_FILE_GROUPS: Record<string, string> = { '4.bin': 'Fight', '5.bin': 'Pet', '6.bin': 'Movement', '7.bin': 'Extra' }

/** The slot label of motion `entry` of `file`, or undefined when the list names none. */
export function motionLabel(file: string, entry: number): string | undefined {
  if (file === '4.bin') return FIGHT[entry]
  if (file === '6.bin') return MOVEMENT[entry]
  return undefined
}
