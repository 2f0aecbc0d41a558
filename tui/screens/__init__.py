"""The app's screens: main, welcome, and the modals (passage, sessions, worlds, help, dialogs)."""
