/// The names Strong has given its columns, in every layout and language it has shipped, mapped to
/// the English names `StrongFormat` reads. Adding a language or a layout is one entry here: the
/// parser reads every file by these names (Docs/History/Imports.md lists what each came from).
enum StrongHeaders {
  /// The English names, as today's layout writes them, and the ones older layouts used instead.
  static let columns = [
    "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance", "Seconds",
    "Notes", "Workout Notes", "RPE", "Weight Unit", "Distance Unit",
    // Layouts that carry the unit in the column's name, or write the duration in seconds.
    "Weight (kg)", "Weight (lb)", "Distance (km)", "Distance (mi)", "Distance (m)", "Duration (sec)",
  ]

  /// Other spellings of an English name in the layouts Strong has shipped.
  static let layouts: [String: String] = [
    "kg": "Weight (kg)", "lb": "Weight (lb)", "lbs": "Weight (lb)", "Weight (lbs)": "Weight (lb)",
    "km": "Distance (km)", "mi": "Distance (mi)", "mi.": "Distance (mi)", "Distance (meters)": "Distance (m)",
    "Workout Duration": "Duration",
  ]

  /// The header in the phone's language, by English name. French, German, Spanish, Portuguese and
  /// Chinese are as Strong writes them; Italian and Dutch follow the app's wording for those
  /// languages and have not been seen in an export yet.
  static let languages: [String: [String: String]] = [
    "fr": [
      "Date": "Date", "Workout Name": "Nom de l'entraînement", "Duration": "Durée",
      "Exercise Name": "Nom de l'exercice",
      "Set Order": "Ordre de la série", "Weight": "Poids", "Reps": "Réps", "Distance": "Distance",
      "Seconds": "Secondes",
      "Notes": "Notes", "Workout Notes": "Notes d'entraînement",
    ],
    "de": [
      "Date": "Datum", "Workout Name": "Workout-Name", "Duration": "Dauer", "Exercise Name": "Name der Übung",
      "Set Order": "Reihenfolge festlegen", "Weight": "Gewicht", "Reps": "Wiederh.", "Distance": "Entfernung",
      "Seconds": "Sekunden", "Notes": "Notizen", "Workout Notes": "Workout-Notizen",
    ],
    "es": [
      "Date": "Fecha", "Workout Name": "Nombre de entrenamiento", "Duration": "Duración",
      "Exercise Name": "Nombre del ejercicio", "Set Order": "Orden de la serie", "Weight": "Peso", "Reps": "Rep.",
      "Distance": "Distancia", "Seconds": "Segundos", "Notes": "Notas", "Workout Notes": "Notas del entrenamiento",
    ],
    "pt": [
      "Date": "Data", "Workout Name": "Nome do treino", "Duration": "Duração", "Exercise Name": "Nome do exercício",
      "Set Order": "Ordem da série", "Weight": "Peso", "Reps": "Reps", "Distance": "Distância", "Seconds": "Segundos",
      "Notes": "Notas", "Workout Notes": "Notas do treino",
    ],
    "it": [
      "Date": "Data", "Workout Name": "Nome dell'allenamento", "Duration": "Durata",
      "Exercise Name": "Nome dell'esercizio", "Set Order": "Ordine della serie", "Weight": "Peso",
      "Reps": "Ripetizioni",
      "Distance": "Distanza", "Seconds": "Secondi", "Notes": "Note", "Workout Notes": "Note dell'allenamento",
    ],
    "nl": [
      "Date": "Datum", "Workout Name": "Naam van training", "Duration": "Duur", "Exercise Name": "Naam van oefening",
      "Set Order": "Setvolgorde", "Weight": "Gewicht", "Reps": "Herh.", "Distance": "Afstand", "Seconds": "Seconden",
      "Notes": "Notities", "Workout Notes": "Trainingsnotities",
    ],
    "zh": [
      "Date": "日期", "Workout Name": "锻炼名称", "Duration": "时长", "Exercise Name": "运动名称", "Set Order": "设置顺序",
      "Weight": "重量", "Reps": "次", "Distance": "距离", "Seconds": "秒", "Notes": "备注", "Workout Notes": "锻炼备注",
    ],
  ]

  /// Every other spelling → the English name.
  static let aliases: [String: String] = {
    var aliases = layouts
    for names in languages.values {
      for (english, local) in names where local != english { aliases[local] = english }
    }
    return aliases
  }()

  /// `Set Order` values of rows that are a rest timer, not a set, in each language.
  static let restRows: Set<String> = [
    "Rest Timer", "Minuteur de repos", "Ruhezeit", "Temporizador de descanso", "Timer di recupero", "Rusttimer",
    "休息计时器",
  ]
}
