"""The view model: what the table view shows, as plain data (no pygame).

The controller (`bottisota.view.app`) changes it from input and the game's
answers; painters (`bottisota.view.*`) turn it into pixels; any other surface
(a second window, a phone) can read the same model (`ViewModel.snapshot()`).
"""
