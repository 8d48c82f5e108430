/**
 * Species and move names (pokemon-stadium.md §15.6). Move ids 1–165 follow pret
 * `oldnotes/stadium1/constants/move_constants.s`; species are in national dex order.
 * Identifiers follow the pipeline's spelling (no punctuation); display names restore it.
 */

const SPECIES_IDS = `Bulbasaur Ivysaur Venusaur Charmander Charmeleon Charizard Squirtle Wartortle Blastoise Caterpie
Metapod Butterfree Weedle Kakuna Beedrill Pidgey Pidgeotto Pidgeot Rattata Raticate Spearow Fearow Ekans Arbok
Pikachu Raichu Sandshrew Sandslash NidoranF Nidorina Nidoqueen NidoranM Nidorino Nidoking Clefairy Clefable Vulpix
Ninetales Jigglypuff Wigglytuff Zubat Golbat Oddish Gloom Vileplume Paras Parasect Venonat Venomoth Diglett Dugtrio
Meowth Persian Psyduck Golduck Mankey Primeape Growlithe Arcanine Poliwag Poliwhirl Poliwrath Abra Kadabra Alakazam
Machop Machoke Machamp Bellsprout Weepinbell Victreebel Tentacool Tentacruel Geodude Graveler Golem Ponyta Rapidash
Slowpoke Slowbro Magnemite Magneton Farfetchd Doduo Dodrio Seel Dewgong Grimer Muk Shellder Cloyster Gastly Haunter
Gengar Onix Drowzee Hypno Krabby Kingler Voltorb Electrode Exeggcute Exeggutor Cubone Marowak Hitmonlee Hitmonchan
Lickitung Koffing Weezing Rhyhorn Rhydon Chansey Tangela Kangaskhan Horsea Seadra Goldeen Seaking Staryu Starmie
MrMime Scyther Jynx Electabuzz Magmar Pinsir Tauros Magikarp Gyarados Lapras Ditto Eevee Vaporeon Jolteon Flareon
Porygon Omanyte Omastar Kabuto Kabutops Aerodactyl Snorlax Articuno Zapdos Moltres Dratini Dragonair Dragonite
Mewtwo Mew`.split(/\s+/)

/** Species identifiers 1–151 (index 0 = species 1), pipeline spelling. */
export const SPECIES: readonly string[] = SPECIES_IDS

const DISPLAY_FIX: Record<string, string> = { NidoranF: 'Nidoran♀', NidoranM: 'Nidoran♂', MrMime: 'Mr. Mime', Farfetchd: "Farfetch'd" }

export function speciesName(species: number): string {
  const id = SPECIES[species - 1]
  return id ? (DISPLAY_FIX[id] ?? id) : `species ${species}`
}

export function speciesId(species: number): string | null {
  return SPECIES[species - 1] ?? null
}

const MOVE_IDS = `POUND KARATE_CHOP DOUBLESLAP COMET_PUNCH MEGA_PUNCH PAY_DAY FIRE_PUNCH ICE_PUNCH THUNDERPUNCH SCRATCH
VICEGRIP GUILLOTINE RAZOR_WIND SWORDS_DANCE CUT GUST WING_ATTACK WHIRLWIND FLY BIND SLAM VINE_WHIP STOMP DOUBLE_KICK
MEGA_KICK JUMP_KICK ROLLING_KICK SAND_ATTACK HEADBUTT HORN_ATTACK FURY_ATTACK HORN_DRILL TACKLE BODY_SLAM WRAP TAKE_DOWN
THRASH DOUBLE_EDGE TAIL_WHIP POISON_STING TWINEEDLE PIN_MISSILE LEER BITE GROWL ROAR SING SUPERSONIC SONICBOOM DISABLE
ACID EMBER FLAMETHROWER MIST WATER_GUN HYDRO_PUMP SURF ICE_BEAM BLIZZARD PSYBEAM BUBBLEBEAM AURORA_BEAM HYPER_BEAM PECK
DRILL_PECK SUBMISSION LOW_KICK COUNTER SEISMIC_TOSS STRENGTH ABSORB MEGA_DRAIN LEECH_SEED GROWTH RAZOR_LEAF SOLARBEAM
POISONPOWDER STUN_SPORE SLEEP_POWDER PETAL_DANCE STRING_SHOT DRAGON_RAGE FIRE_SPIN THUNDERSHOCK THUNDERBOLT THUNDER_WAVE
THUNDER ROCK_THROW EARTHQUAKE FISSURE DIG TOXIC CONFUSION PSYCHIC_M HYPNOSIS MEDITATE AGILITY QUICK_ATTACK RAGE TELEPORT
NIGHT_SHADE MIMIC SCREECH DOUBLE_TEAM RECOVER HARDEN MINIMIZE SMOKESCREEN CONFUSE_RAY WITHDRAW DEFENSE_CURL BARRIER
LIGHT_SCREEN HAZE REFLECT FOCUS_ENERGY BIDE METRONOME MIRROR_MOVE SELFDESTRUCT EGG_BOMB LICK SMOG SLUDGE BONE_CLUB
FIRE_BLAST WATERFALL CLAMP SWIFT SKULL_BASH SPIKE_CANNON CONSTRICT AMNESIA KINESIS SOFTBOILED HI_JUMP_KICK GLARE
DREAM_EATER POISON_GAS BARRAGE LEECH_LIFE LOVELY_KISS SKY_ATTACK TRANSFORM BUBBLE DIZZY_PUNCH SPORE FLASH PSYWAVE SPLASH
ACID_ARMOR CRABHAMMER EXPLOSION FURY_SWIPES BONEMERANG REST ROCK_SLIDE HYPER_FANG SHARPEN CONVERSION TRI_ATTACK
SUPER_FANG SLASH SUBSTITUTE STRUGGLE`.split(/\s+/)

/** Move constants 1–165 (index 0 = move 1). */
export const MOVES: readonly string[] = MOVE_IDS
export const MOVE_COUNT = 165

/** Display name: `_` → space, title case; PSYCHIC_M → "Psychic" (§15.6). */
export function moveName(id: number): string {
  const c = MOVES[id - 1]
  if (!c) return `move ${id}`
  if (c === 'PSYCHIC_M') return 'Psychic'
  return c
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')
}

/**
 * File names/slugs (§15.6): `NNN_lowercasename` for species, `x<NNN>_model` for every other file
 * (§3.4 states it for 153–214; the pipeline's build.py uses the same pattern for 151 and 152, so
 * every non-species glb is `glb/x<NNN>_model.glb`; the display names tell the doll and Surfing Pikachu apart).
 */
export function modelSlug(file: number): string {
  if (file < 151) return `${String(file + 1).padStart(3, '0')}_${SPECIES[file]!.toLowerCase()}`
  return `x${String(file).padStart(3, '0')}_model`
}

export function modelDisplayName(file: number): string {
  if (file < 151) return speciesName(file + 1)
  if (file === 151) return 'Substitute doll'
  if (file === 152) return 'Surfing Pikachu'
  return `Model ${file}`
}
